import Foundation
import MediaTestSupport
#if canImport(FoundationXML)
    import FoundationXML
#endif
import Testing

extension ComplianceTests {
    /// `mediactl audit --junit F --html G` on a real state directory after every tier was fetched and the
    /// service stopped: exit 0, one clean JUnit suite per tier (a test case per check) that a real XML
    /// parser reads, a strict-parser-valid HTML page, and no token or private URL in either file.
    @Test func reportFilesOfACleanState() throws {
        let world = try ServeEnvironment()
        defer { world.tearDown() }
        try world.start()
        try fetchEveryTier(world)
        #expect(world.stop() == 0)
        let (result, junit, html) = try auditWithReports(world)
        #expect(result.exitCode == 0)
        #expect(result.stderr == "")
        #expect(result.stdout.hasSuffix("\nclean: no violations\n"))

        let report = try JUnitFile.parse(junit)
        #expect(report.root.attributes["tests"] == "53")  // audit-log + 4 tiers × 13 checks
        #expect(report.root.attributes["failures"] == "0")
        #expect(report.suites.map { $0.attributes["name"] } == ["audit-log", "tier avatar", "tier no-store", "tier private", "tier public"])
        #expect(report.cases.count == 53)
        #expect(report.failures.isEmpty)
        let records = world.auditRecords
        #expect(report.properties["records"] == String(records.count))
        #expect(report.properties["lastHash"] == records.last?.hash)
        #expect(report.properties["firstRecordTime"] == records.first?.time)
        #expect(report.properties["lastRecordTime"] == records.last?.time)

        let page = try Self.strictHTMLCheck(html)
        #expect(page.contains("title=mediactl audit: clean"))
        #expect(page.contains("script=0"))
        #expect(page.contains("svg=1"))
        try Self.expectNoSecret(in: [junit, html])
    }

    /// The same on a state with a planted violation (a plaintext receipt in `sealed/private/`): exit 1 as
    /// without the flags, and both files name each violation in the private tier's suite.
    @Test func reportFilesNameAPlantedViolation() throws {
        let world = try ServeEnvironment()
        defer { world.tearDown() }
        try world.start()
        #expect(try world.get("/receipts/r-7731.png", token: Self.u1).cacheStatus.stored)
        #expect(world.stop() == 0)
        let plaintextKey = String(repeating: "cd", count: 32)
        let sealedFolder = world.stateDirectory.appendingPathComponent("sealed/private/cd/cd")
        try FileManager.default.createDirectory(at: sealedFolder, withIntermediateDirectories: true)
        let receipt = Fixtures.bytes("receipts/r-7731.png")
        try Data(receipt).write(to: sealedFolder.appendingPathComponent(plaintextKey))

        let (result, junit, html) = try auditWithReports(world)
        #expect(result.exitCode == 1)
        #expect(result.stdout.contains("\nviolations: 2\n"))
        let report = try JUnitFile.parse(junit)
        #expect(report.root.attributes["failures"] == "2")
        let tier = try #require(report.suites.first { $0.attributes["name"] == "tier private" })
        #expect(tier.attributes["failures"] == "2")
        let evidence = "sealed/private/cd/cd/\(plaintextKey) (\(receipt.count) bytes)"
        #expect(report.failures.map(\.type) == ["not-sealed", "unrecorded-object"])
        #expect(report.failures.map(\.message) == ["\(evidence) is not a sealed object", "\(evidence) has no store record"])
        #expect(report.failures.map(\.classname) == ["mediactl.tier.private", "mediactl.tier.private"])
        #expect(report.failures[1].text == "kind: unrecorded-object\ntier: private\nfolder: sealed\nkey: \(plaintextKey)\nevidence: \(evidence) has no store record")

        let page = try Self.strictHTMLCheck(html)
        #expect(page.contains("title=mediactl audit: 2 violations"))
        #expect(page.contains("text=\(evidence) is not a sealed object"))
        try Self.expectNoSecret(in: [junit, html])
    }

    /// Runs `audit --junit <root>/audit.xml --html <root>/audit.html`; its result and the two files.
    private func auditWithReports(_ world: ServeEnvironment) throws -> (MediactlProcess.CommandResult, String, String) {
        let junit = world.root.appendingPathComponent("audit.xml")
        let html = world.root.appendingPathComponent("audit.html")
        let result = try MediactlProcess.run([
            "audit", "--state-dir", world.stateDirectory.path, "--policies", world.policiesDirectory.path,
            "--junit", junit.path, "--html", html.path,
        ])
        return (result, try String(contentsOf: junit, encoding: .utf8), try String(contentsOf: html, encoding: .utf8))
    }

    /// Neither file holds a test token, `Bearer`, a cookie or a private route's URL.
    private static func expectNoSecret(in files: [String]) throws {
        for file in files {
            for secret in [u1, u2, "Bearer", "Cookie", "cookie", "/receipts/", "r-7731"] {
                #expect(!file.contains(secret), "\(secret)")
            }
        }
    }

    /// python3's `html.parser`: the doctype, `<html lang>`, `<meta charset=utf-8>`, a title, balanced
    /// non-void elements, no script, no `src`/`href`/`on…` attribute. Returns `title=…`, `<tag>=<count>`
    /// for script and svg, and `text=…` lines of the page's text nodes.
    static func strictHTMLCheck(_ page: String) throws -> [String] {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("audit-\(UUID().uuidString).html")
        try Data(page.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let script = #"""
            import sys
            from html.parser import HTMLParser
            VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}
            class Strict(HTMLParser):
                def __init__(self):
                    super().__init__(convert_charrefs=True)
                    self.stack, self.errors, self.out, self.counts = [], [], [], {"script": 0, "svg": 0}
                    self.doctype, self.lang, self.charset, self.title = None, None, False, ""
                def handle_decl(self, decl): self.doctype = decl
                def handle_starttag(self, tag, attrs):
                    if tag in self.counts: self.counts[tag] += 1
                    if tag in ("script", "iframe", "object", "embed", "link", "img"): self.errors.append("<%s>" % tag)
                    for name, _ in attrs:
                        if name in ("src", "href", "srcset", "xlink:href") or name.startswith("on"): self.errors.append(name)
                    if tag == "html": self.lang = dict(attrs).get("lang")
                    if tag == "meta" and dict(attrs).get("charset") == "utf-8": self.charset = True
                    if tag not in VOID: self.stack.append(tag)
                def handle_startendtag(self, tag, attrs): self.errors.append("<%s/>" % tag)
                def handle_endtag(self, tag):
                    if not self.stack or self.stack[-1] != tag: self.errors.append("</%s> in %s" % (tag, self.stack))
                    else: self.stack.pop()
                def handle_data(self, data):
                    if self.stack[-2:] == ["head", "title"]: self.title += data
                    elif data.strip() and self.stack[-1:] != ["style"]: self.out.append("text=" + data)
            p = Strict()
            p.feed(open(sys.argv[1], encoding="utf-8").read())
            p.close()
            if p.doctype != "DOCTYPE html" or p.stack or not p.lang or not p.charset or not p.title: p.errors.append("structure")
            if p.errors: sys.exit("; ".join(p.errors))
            print("\n".join(["title=" + p.title] + ["%s=%d" % kv for kv in sorted(p.counts.items())] + p.out))
            """#
        let result = try ChildProcess.run(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", script, file.path])
        #expect(result.status == 0, "\(result.stderr)")
        return result.stdout.split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
    }
}

/// A JUnit file read with Foundation's `XMLParser`: the root, its suites, cases and failures.
private final class JUnitFile: NSObject, XMLParserDelegate {
    struct Element {
        var name: String
        var attributes: [String: String]
    }

    struct Failure {
        var message: String
        var type: String
        var classname: String
        var text: String
    }

    private(set) var root = Element(name: "", attributes: [:])
    private(set) var suites: [Element] = []
    private(set) var cases: [Element] = []
    private(set) var failures: [Failure] = []
    /// The `audit-log` suite's properties.
    private(set) var properties: [String: String] = [:]
    private var depth = 0
    private var inFailure = false

    static func parse(_ text: String) throws -> JUnitFile {
        let file = JUnitFile()
        let parser = XMLParser(data: Data(text.utf8))
        parser.delegate = file
        guard parser.parse() else { throw MediactlProcess.Failure("invalid JUnit XML: \(String(describing: parser.parserError))") }
        return file
    }

    func parser(
        _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        depth += 1
        let element = Element(name: name, attributes: attributes)
        switch name {
        case "testsuites" where depth == 1: root = element
        case "testsuite" where depth == 2: suites.append(element)
        case "property" where suites.count == 1: properties[attributes["name"] ?? ""] = attributes["value"]
        case "testcase": cases.append(element)
        case "failure":
            inFailure = true
            failures.append(Failure(
                message: attributes["message"] ?? "", type: attributes["type"] ?? "",
                classname: cases.last?.attributes["classname"] ?? "", text: ""))
        default: break
        }
    }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        depth -= 1
        if name == "failure" { inFailure = false }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        if inFailure { failures[failures.count - 1].text += string }
    }
}
