import Foundation
import MediaAudit
import MediaAuditReports
import MediaStorage
import MediaTestSupport
import Synchronization
import MediaServer
import Testing

@testable import MediaCTL

/// `mediactl audit --junit FILE --html FILE`: the files, stdout and exit status unchanged, and the error
/// naming a file that cannot be written.
@Suite struct AuditReportFilesTests {
    static let suiteNames = ["audit-log", "tier avatar", "tier no-store", "tier private", "tier public"]

    @Test func parsesBothFlagsWithAnyOtherOption() async throws {
        #expect(try MediaCTLMain.parse(["audit", "--junit", "r.xml", "--html=r.html", "--json"], environment: [:])
            == .command(AuditCommand(json: true, junitFile: "r.xml", htmlFile: "r.html")))
        #expect(try MediaCTLMain.parse(["audit", "--html", "-"], environment: [:]) == .command(AuditCommand(htmlFile: "-")))
        let missing = await CLIRun.run(["audit", "--junit"])
        #expect(missing.status == 64)
        #expect(missing.stderr == CLIRun.usageError("missing value for option '--junit' (expected FILE)", command: ["audit"]))
        let twice = await CLIRun.run(["audit", "--html", "a", "--html", "b"])
        #expect(twice.status == 64)
    }

    @Test func helpListsTheFlags() async {
        let help = await CLIRun.run(["audit", "--help"])
        #expect(help.stdout.hasPrefix(
            "Usage: mediactl audit [--state-dir DIR]... [--policies DIR] [--json] [--junit FILE] [--html FILE]\n"))
        #expect(help.stdout.contains(
            "  --junit FILE      Also write the report as JUnit XML to FILE: a test case per check and tier, a failure per violation.\n"))
        #expect(help.stdout.contains(
            "  --html FILE       Also write the report as one self-contained HTML page to FILE (tables and a chart, no script).\n"))
        #expect(help.stdout.contains(
            "\n--junit and --html also write files: stdout (text or --json) and the exit status are unchanged, "
                + "but a file that cannot be written exits 2 (after the report is printed).\n"))
    }

    @Test func aCleanStateWritesBothFilesAndTheSameStdout() async throws {
        let harness = try ServiceStateHarness()
        defer { Task { await harness.close() } }
        try await harness.populate()
        let junit = harness.folder.path + "/audit.xml"
        let html = harness.folder.path + "/audit.html"
        let plain = await harness.audit()
        let result = await harness.audit(["--junit", junit, "--html", html])
        #expect(result == plain)
        #expect(result.status == 0)
        let records = try harness.records()
        let root = try XMLNode.parse(String(contentsOfFile: junit, encoding: .utf8))
        #expect(root.attributes["tests"] == "53")
        #expect(root.attributes["failures"] == "0")
        #expect(root.children.map { $0.attributes["name"] ?? "" } == Self.suiteNames)
        let properties = Dictionary(uniqueKeysWithValues: root.children[0].descendants("property").map {
            ($0.attributes["name"] ?? "", $0.attributes["value"] ?? "")
        })
        #expect(properties == [
            "records": String(records.count), "checkpointSeq": "0", "lastHash": records.last!.hash.hex, "violations": "0",
            "firstRecordTime": records.first!.time.rfc3339, "lastRecordTime": records.last!.time.rfc3339,
        ])
        let page = try String(contentsOfFile: html, encoding: .utf8)
        #expect(page.hasPrefix("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
            + "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>mediactl audit: clean</title>\n"))
        #expect(page.contains("<tr><th>records</th><td>\(records.count)</td></tr>\n"))
        #expect(page.contains(
            "<tr><th>time range</th><td>\(records.first!.time.rfc3339) – \(records.last!.time.rfc3339)</td></tr>\n"))
        for path in [junit, html] {
            let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
            #expect(mode == 0o600)
        }
    }

    /// With the clocks injected, the files are exactly the renderings of the report with the records'
    /// time range, the run's start and its duration.
    @Test func theFilesAreTheRenderingsOfTheReport() async throws {
        let harness = try ServiceStateHarness()
        defer { Task { await harness.close() } }
        try await harness.populate()
        let junit = harness.folder.path + "/audit.xml"
        let html = harness.folder.path + "/audit.html"
        let clock = AuditReportClock.fixed(ticks: [5_000, 5_250])
        let options = AuditCommand(
            stateDirectories: [harness.stateDirectory], policiesDirectory: harness.policiesDirectory, junitFile: junit,
            htmlFile: html)
        let out = CapturedOutput()
        let err = CapturedOutput()
        let status = options.run(context: CommandContext(stdout: out, stderr: err, environment: [:]), clock: clock)
        #expect(status == .success)
        #expect(err.text == "")
        let records = try harness.records()
        let document = try options.audit(context: CommandContext(stdout: CapturedOutput(), stderr: CapturedOutput(), environment: [:]))
        #expect(out.text == document.text)
        let context = AuditReportContext(
            generatedAt: AuditTime(millisecondsSinceEpoch: 1_795_950_435_123), durationMilliseconds: 250,
            records: .init(first: records.first!.time, last: records.last!.time))
        let xml = try String(contentsOfFile: junit, encoding: .utf8)
        #expect(xml == AuditJUnitReport(report: document.report, context: context).xml)
        #expect(xml.contains(#"<testsuites name="mediactl audit" tests="53" failures="0" errors="0" time="0.250">"#))
        #expect(xml.contains(#"<testsuite name="audit-log" tests="1" failures="0" errors="0" skipped="0" time="0.000" timestamp="2026-11-29T11:07:15">"#))
        #expect(try String(contentsOfFile: html, encoding: .utf8) == AuditHTMLReport(report: document.report, context: context).html)
    }

    @Test func violationsFailTheirCasesAndJSONStaysTheSame() async throws {
        let harness = try ServiceStateHarness()
        defer { Task { await harness.close() } }
        try await harness.populate()
        let hex = KeyDigest.hex(of: "planted-plaintext")
        let folder = "\(harness.stateDirectory)/sealed/private/\(hex.prefix(2))/\(hex.dropFirst(2).prefix(2))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try Data("plain bytes".utf8).write(to: URL(fileURLWithPath: folder + "/" + hex))
        try ServeStateFile(pid: Int32.max, listen: "127.0.0.1:1", adminToken: try ServeStateFile.makeAdminToken())
            .write(stateDirectory: harness.stateDirectory)
        let junit = harness.folder.path + "/audit.xml"
        let html = harness.folder.path + "/audit.html"
        let plain = await harness.audit(["--json"])
        let result = await harness.audit(["--json", "--junit", junit, "--html", html])
        #expect(result == plain)
        #expect(result.status == 1)
        let xml = try String(contentsOfFile: junit, encoding: .utf8)
        let root = try XMLNode.parse(xml)
        #expect(root.attributes["failures"] == "2")
        let privateSuite = try #require(root.children.first { $0.attributes["name"] == "tier private" })
        #expect(privateSuite.attributes["failures"] == "2")
        let failures = privateSuite.descendants("failure")
        #expect(failures.map { $0.attributes["type"] } == ["not-sealed", "unrecorded-object"])
        let path = "sealed/private/\(hex.prefix(2))/\(hex.dropFirst(2).prefix(2))/\(hex) (11 bytes)"
        #expect(failures.map { $0.attributes["message"] } == ["\(path) is not a sealed object", "\(path) has no store record"])
        #expect(failures[0].text == "kind: not-sealed\ntier: private\nfolder: sealed\nkey: \(hex)\nevidence: \(path) is not a sealed object")
        // The notes: the dead service (log) and the defect (inventory), in the log suite's system-out.
        let notes = "dead-service: serve.json names pid \(Int32.max), which is not running (the service was killed); "
            + "its sealed files stay until the next start shreds them\nnot-sealed \(path.dropLast(11)): "
        #expect(root.children[0].elements("system-out").first?.text.hasPrefix(notes) == true)
        let page = try String(contentsOfFile: html, encoding: .utf8)
        #expect(page.contains("<title>mediactl audit: 2 violations</title>"))
        #expect(page.contains(
            "<tr><td data-label=\"kind\">not-sealed</td><td data-label=\"check\">no plaintext under sealed/</td>"
                + "<td data-label=\"tier\">private</td><td data-label=\"folder\">sealed</td><td data-label=\"key\"><code>\(hex)</code></td>"
                + "<td class=\"n\" data-label=\"seq\"></td><td class=\"t\" data-label=\"evidence\">\(path) is not a sealed object</td></tr>\n"))
        #expect(page.contains("<h2 id=\"notes\">Notes</h2>\n<ul>\n<li>dead-service: serve.json names pid \(Int32.max)"))
    }

    /// A file that cannot be written: `mediactl: cannot write the JUnit report 'F': <reason>`, exit 2,
    /// after stdout is written and the other file too.
    @Test func anUnwritableFileIsAnErrorNamingIt() async throws {
        let harness = try ServiceStateHarness()
        defer { Task { await harness.close() } }
        try await harness.populate()
        let missing = harness.folder.path + "/no-such-folder/audit.xml"
        let html = harness.folder.path + "/audit.html"
        let plain = await harness.audit()
        let result = await harness.audit(["--junit", missing, "--html", html])
        #expect(result.status == 2)
        #expect(result.stdout == plain.stdout)
        #expect(result.stderr == "mediactl: cannot write the JUnit report '\(missing)': No such file or directory (errno 2)\n")
        #expect(FileManager.default.fileExists(atPath: html))
        let both = await harness.audit(["--junit", missing, "--html", harness.folder.path])
        #expect(both.status == 2)
        #expect(both.stderr == """
            mediactl: cannot write the JUnit report '\(missing)': No such file or directory (errno 2)
            mediactl: cannot write the HTML report '\(harness.folder.path)': Is a directory (errno 21)

            """)
    }

    /// An audit that cannot run (exit 2) writes no file.
    @Test func noFileWhenTheAuditCannotRun() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let junit = folder.path + "/audit.xml"
        let result = await CLIRun.run(
            ["audit", "--state-dir", folder.path + "/absent", "--junit", junit])
        #expect(result.status == 2)
        #expect(result.stderr == "mediactl: state directory '\(folder.path)/absent' does not exist\n")
        #expect(!FileManager.default.fileExists(atPath: junit))
    }
}
