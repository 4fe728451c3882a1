import Foundation
import MediaService
import MediaTestSupport
import Testing

/// The HTML audit pages in a real headless Chromium (issue 24 item 11, docs/audit-report.md "HTML"): the
/// `--html` page of a real state with a planted violation, and the fleet page of two real replicas, each
/// laid out at a phone's 390 × 844 and a desktop's 1280 × 800 without scrolling sideways. Screenshots of
/// both sizes are kept in `.build/e2e-artifacts/` (`AuditHTMLReport-390x844.png`, …, and a full-length
/// `AuditHTMLReport-390-full.png`), with the two pages (`AuditHTMLReport.html`, `AuditFleetHTMLReport.html`).
@Suite(.enabled(if: NginxOrigin.isAvailable, "nginx is installed by scripts/test"),
       .enabled(if: HeadlessChromium.isAvailable, "chromium is not installed (/usr/bin/chromium): scripts/test installs it"),
       .serialized)
struct AuditHTMLBrowserTests {
    /// The window sizes the pages are laid out at.
    static let sizes = [(width: 390, height: 844), (width: 1280, height: 800)]

    /// The headings before the tables that scroll inside their box at 390 px: every tier table with rows
    /// (the single page: avatar, private, public; the fleet: its summed tiers, replica 1's three, replica
    /// 2's public).
    static let scrollingOnAPhone: [String: [String]] = {
        let avatar = "tier avatar (allows disk)", privateTier = "tier private (allows encrypted-disk)"
        let publicTier = "tier public (allows disk)"
        return [
            "AuditHTMLReport": [avatar, privateTier, publicTier],
            "AuditFleetHTMLReport": [avatar, privateTier, publicTier, avatar, privateTier, publicTier, publicTier],
        ]
    }()

    /// What the probe measures once the page is laid out (see ``probeScript``).
    struct Layout: Decodable, Equatable {
        /// `document.documentElement.scrollWidth`: the page's width including anything overflowing it.
        var scrollWidth: Int
        var innerWidth: Int
        var scrollHeight: Int
        /// `.table-wrap` boxes, and the headings before those whose table is wider than they are (scrolling
        /// inside the box).
        var wraps: Int
        var scrolling: [String]
        /// The chart's rendered width (the first `<svg>`).
        var svgWidth: Int
        /// Elements (outside table boxes and SVGs) reaching past the window's right edge, or whose content
        /// is wider than they are (text that does not break): none expected.
        var overflowing: [String]
    }

    /// Appended to a copy of the page (the shipped page has no script): measures after layout and posts
    /// ``Layout`` as JSON to the framing page (``framePage(width:height:)``).
    static let probeScript = """
        <script>
        (function () {
          const root = document.documentElement;
          const wraps = Array.from(document.querySelectorAll('.table-wrap'));
          const overflowing = Array.from(document.body.querySelectorAll('*')).filter(function (e) {
            if (e.ownerSVGElement) return false;
            if (e.parentElement && e.parentElement.closest('.table-wrap')) return false;
            const clipped = e.clientWidth > 0 && e.scrollWidth > e.clientWidth + 1 && !e.classList.contains('table-wrap');
            return clipped || e.getBoundingClientRect().right > window.innerWidth + 0.5;
          }).map(function (e) { return e.tagName.toLowerCase() + (e.id ? '#' + e.id : ''); });
          const layout = {
            scrollWidth: root.scrollWidth, innerWidth: window.innerWidth, scrollHeight: root.scrollHeight,
            wraps: wraps.length,
            scrolling: wraps.filter(function (w) { return w.scrollWidth > w.clientWidth; })
              .map(function (w) { return w.previousElementSibling ? w.previousElementSibling.textContent : '?'; }),
            svgWidth: Math.round(document.querySelector('svg').getBoundingClientRect().width), overflowing: overflowing
          };
          parent.postMessage(JSON.stringify(layout), '*');
        })();
        </script>
        """

    @Test func theSingleAndFleetPagesFitAPhoneAndADesktop() throws {
        let world = try ServeEnvironment()
        defer { world.tearDown() }
        try world.start()
        let stateB = world.root.appendingPathComponent("state-b")
        let replicaB = try MediactlProcess(policiesDirectory: world.policiesDirectory, stateDirectory: stateB)
        defer { replicaB.cleanUp() }
        for path in ["/catalog/coffee-237a7131.jpg", "/catalog/chelsea.png", "/avatars/u1001.jpg"] {
            #expect(try world.get(path).status == 200, "\(path)")
        }
        #expect(try world.get("/receipts/r-7731.png", token: NginxOrigin.longTokenU1).cacheStatus.stored)
        #expect(try RawHTTP.get(port: replicaB.port, "/catalog/rocket-cfc075d1.jpg").cacheStatus.stored)
        try world.settle()
        #expect(world.stop() == 0)
        #expect(replicaB.terminate() == 0)
        // A plaintext receipt under sealed/private/: two violations whose keys and paths are 64 hex digits long.
        let plaintextKey = String(repeating: "cd", count: 32)
        let sealedFolder = world.stateDirectory.appendingPathComponent("sealed/private/cd/cd")
        try FileManager.default.createDirectory(at: sealedFolder, withIntermediateDirectories: true)
        try Data(Fixtures.bytes("receipts/r-7731.png")).write(to: sealedFolder.appendingPathComponent(plaintextKey))

        let single = world.root.appendingPathComponent("audit.html"), junit = world.root.appendingPathComponent("audit.xml")
        let fleet = world.root.appendingPathComponent("fleet.html")
        let policies = ["--policies", world.policiesDirectory.path]
        let audit = try MediactlProcess.run(
            ["audit", "--state-dir", world.stateDirectory.path] + policies + ["--html", single.path, "--junit", junit.path])
        #expect(audit.exitCode == 1, "\(audit.stderr)")
        let fleetAudit = try MediactlProcess.run(
            ["audit", "--state-dir", world.stateDirectory.path, "--state-dir", stateB.path] + policies + ["--html", fleet.path])
        #expect(fleetAudit.exitCode == 1, "\(fleetAudit.stderr)")

        // The shipped page: the viewport, no script, and one checks row per JUnit test case.
        let page = try String(contentsOf: single, encoding: .utf8)
        #expect(page.contains("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"))
        #expect(!page.contains("<script"))
        let cases = try String(contentsOf: junit, encoding: .utf8).components(separatedBy: "<testcase ").count - 1
        #expect(cases == 53)  // audit-log + 4 tiers × 13 checks
        #expect(page.contains("<h2 id=\"checks\">Checks (53 run, 2 failed)</h2>\n"))
        #expect(page.components(separatedBy: "</td><td class=\"ok\">pass</td>").count - 1 == 51)
        #expect(page.components(separatedBy: "</td><td class=\"bad\">fail</td>").count - 1 == 2)
        #expect(page.contains("<h2 id=\"policies\">Policies in force (1)</h2>\n"))

        for (name, file) in [("AuditHTMLReport", single), ("AuditFleetHTMLReport", fleet)] {
            let html = try String(contentsOf: file, encoding: .utf8)
            let tables = html.components(separatedBy: "<table").count - 1
            BrowserSignedURLTests.keepArtifact(file, as: "\(name).html")
            for size in Self.sizes {
                let layout = try Self.layout(of: html, width: size.width, height: size.height, in: world.root)
                let context = "\(name) at \(size.width)×\(size.height): \(layout)"
                #expect(layout.innerWidth == size.width, "\(context)")
                #expect(layout.scrollWidth <= layout.innerWidth, "\(context)")
                #expect(layout.scrollWidth == size.width, "\(context)")
                #expect(layout.overflowing == [], "\(context)")
                #expect(layout.wraps == tables, "\(context)")
                // Only the tier tables (14 columns) scroll inside their own box, and only on a phone; the violations
                // and the fleet totals become cards, the checks and policies wrap.
                #expect(layout.scrolling == (size.width == 390 ? Self.scrollingOnAPhone[name] : []), "\(context)")
                #expect(layout.svgWidth == 320, "\(context)")  // the chart's natural width: it fits both
                print("\(context)")

                let screenshot = world.root.appendingPathComponent("\(name)-\(size.width)x\(size.height).png")
                try Self.screenshot(file, to: screenshot, width: size.width, height: size.height)
                if name == "AuditHTMLReport" && size.width == 390 {
                    let full = world.root.appendingPathComponent("\(name)-390-full.png")
                    try Self.screenshot(file, to: full, width: 390, height: min(layout.scrollHeight, 16_000))
                }
            }
        }
    }

    // MARK: Helpers

    /// A page showing `probe.html` in an `<iframe>` of exactly `width` × `height` CSS pixels that writes what
    /// the frame posts into `<pre id="layout-probe">`. (Chromium's headless window is at least 500 pixels wide
    /// for `--dump-dom`, whatever `--window-size` says; `--screenshot` honours the size.)
    static func framePage(width: Int, height: Int) -> String {
        """
        <!DOCTYPE html>
        <html lang="en"><head><meta charset="utf-8"><title>probe</title>
        <style>body { margin: 0; } iframe { border: 0; display: block; }</style></head>
        <body><iframe src="probe.html" width="\(width)" height="\(height)"></iframe><pre id="layout-probe"></pre>
        <script>
        window.addEventListener('message', function (e) { document.getElementById('layout-probe').textContent = e.data; });
        </script>
        </body></html>
        """
    }

    /// Lays out a copy of `html` with ``probeScript`` before `</body>` in a frame of `width` × `height`
    /// (``framePage(width:height:)``) and reads the probe from the DOM Chromium dumps.
    static func layout(of html: String, width: Int, height: Int, in root: URL) throws -> Layout {
        let folder = root.appendingPathComponent("probe-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(html.replacingOccurrences(of: "</body>", with: probeScript + "\n</body>").utf8)
            .write(to: folder.appendingPathComponent("probe.html"))
        let frame = folder.appendingPathComponent("frame.html")
        try Data(framePage(width: width, height: height).utf8).write(to: frame)
        let run = try HeadlessChromium.run(
            ["--force-device-scale-factor=1", "--window-size=\(max(width, 500) + 20),\(height + 40)",
             "--virtual-time-budget=5000", "--dump-dom", frame.absoluteString], timeoutSeconds: 30)
        let diagnostics = "exit \(run.exitCode), timed out \(run.timedOut); stderr:\n\(BrowserSignedURLTests.relevant(run.stderr))"
        guard !run.timedOut, run.exitCode == 0 else { throw HeadlessChromium.Failure(diagnostics) }
        guard let start = run.stdout.range(of: "<pre id=\"layout-probe\">"),
              let end = run.stdout.range(of: "</pre>", range: start.upperBound..<run.stdout.endIndex),
              start.upperBound < end.lowerBound
        else { throw HeadlessChromium.Failure("no probe in the DOM; \(diagnostics)\n\(run.stdout)") }
        let json = run.stdout[start.upperBound..<end.lowerBound].replacingOccurrences(of: "&lt;", with: "<")
            .replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(of: "&amp;", with: "&")
        return try JSONDecoder().decode(Layout.self, from: Data(json.utf8))
    }

    /// A PNG of the shipped page (no probe) at `width` × `height`, kept in `.build/e2e-artifacts/`.
    static func screenshot(_ page: URL, to file: URL, width: Int, height: Int) throws {
        let shot = try HeadlessChromium.screenshot(page.absoluteString, to: file, width: width, height: height,
                                                   virtualTimeBudgetMilliseconds: 2000, timeoutSeconds: 30)
        #expect(!shot.timedOut && shot.exitCode == 0, "\(shot.exitCode): \(BrowserSignedURLTests.relevant(shot.stderr))")
        let info = try ImageValidator().validate(Array(Data(contentsOf: file)))
        #expect(info.format == .png)
        #expect(info.width == width && info.height == height, "\(info.width)×\(info.height)")
        BrowserSignedURLTests.keepArtifact(file, as: file.lastPathComponent)
    }
}
