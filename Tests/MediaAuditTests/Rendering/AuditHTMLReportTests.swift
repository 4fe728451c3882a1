import Foundation
import Testing

@testable import MediaAudit
@testable import MediaAuditReports

@Suite struct AuditHTMLReportTests {
    typealias F = RenderingFixtures

    static let tierHeader = "<thead><tr><th>storage</th><th>stored</th><th>updated</th><th>skipped</th><th>evicted</th>"
        + "<th>expired</th><th>purged</th><th>invalidated</th><th>shredded</th><th>objects</th><th>bytes</th>"
        + "<th>variants stored</th><th>variant objects</th><th>skip reasons</th></tr></thead>"

    static func cells(_ values: [Int]) -> String { values.map { "<td class=\"n\">\($0)</td>" }.joined() }

    /// A tier row's cells after `storage`: the eight record counts and `objects`, the bytes cell, the two
    /// variant counts.
    static func tierCells(_ counts: [Int], bytes: String, exact: Int, variants: [Int] = [0, 0]) -> String {
        cells(counts) + "<td class=\"n\" title=\"\(exact) bytes\">\(bytes)</td>" + cells(variants)
    }

    static let head = """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">

        """

    static let style = """
        <style>
        body { font-family: system-ui, sans-serif; margin: 1em; color: #222; line-height: 1.4; }
        h1, h2, h3, h4, li { overflow-wrap: anywhere; }
        .table-wrap { max-width: 100%; overflow-x: auto; margin: 0.5em 0 1.5em; }
        table { border-collapse: collapse; font-size: 0.9375em; }
        th, td { border: 1px solid #ccc; padding: 0.2em 0.5em; text-align: left; vertical-align: top; }
        td.n { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
        td.t { overflow-wrap: anywhere; }
        th.suite { background: #f3f3f3; }
        td.failure { overflow-wrap: anywhere; padding-left: 1.5em; }
        .bad { color: #b00020; font-weight: bold; }
        .ok { color: #1b5e20; }
        code { overflow-wrap: anywhere; word-break: break-all; }
        svg { display: block; max-width: 100%; height: auto; }
        svg text { font-size: 12px; }
        @media (max-width: 40em) {
        table.cards, .cards tbody, .cards tr, .cards th, .cards td { display: block; }
        .cards thead { display: none; }
        .cards tr { border: 1px solid #ccc; margin-bottom: 0.5em; }
        .cards th, .cards td { border: 0; text-align: left; overflow-wrap: anywhere; }
        .cards td:empty { display: none; }
        .cards td::before { content: attr(data-label) ": "; font-weight: bold; }
        }
        </style>

        """

    /// The rows of a suite whose checks all pass: its heading row, then one row per check.
    static func passingSuite(_ name: String, _ checks: [String]) -> String {
        "<tr><th colspan=\"2\" class=\"suite\">\(name)</th></tr>\n"
            + checks.map { "<tr><td>\($0)</td><td class=\"ok\">pass</td></tr>\n" }.joined()
    }

    @Test func aCleanReportIsAnExactPage() {
        let page = AuditHTMLReport(report: F.clean, context: F.context)
        #expect(page.title == "mediactl audit: clean")
        let expected = Self.head + "<title>mediactl audit: clean</title>\n" + Self.style + """
            </head>
            <body>
            <h1>mediactl audit: clean</h1>
            <h2 id="summary">Summary</h2>
            <div class="table-wrap">
            <table>
            <tr><th>result</th><td class="ok">clean</td></tr>
            <tr><th>chain</th><td class="ok">intact, last hash <code>\(F.lastHash.hex)</code></td></tr>
            <tr><th>records</th><td>3</td></tr>
            <tr><th>time range</th><td>2026-11-29T10:07:15.123Z – 2026-11-29T11:07:14.123Z</td></tr>
            <tr><th>generated</th><td>2026-11-29T11:07:15.123Z</td></tr>
            </table>
            </div>
            <h2 id="violations">Violations (0)</h2>
            <p class="ok">No violations.</p>
            <h2 id="checks">Checks (27 run, 0 failed)</h2>
            <div class="table-wrap">
            <table>
            <thead><tr><th>check</th><th>result</th></tr></thead>
            <tbody>

            """ + Self.passingSuite("audit-log", ["chain intact"]) + Self.passingSuite("tier private", F.tierCheckNames)
            + Self.passingSuite("tier public", F.tierCheckNames) + """
            </tbody>
            </table>
            </div>
            <h2 id="policies">Policies in force (0)</h2>
            <p>No policy record in the log.</p>
            <h2 id="tiers">Tiers</h2>
            <h3>tier private (allows encrypted-disk)</h3>
            <div class="table-wrap">
            <table>
            \(Self.tierHeader)
            <tbody>
            <tr><td>encrypted-disk</td>\(Self.tierCells([1, 0, 0, 0, 0, 0, 0, 0, 2], bytes: "39.7 KiB", exact: 40618))<td></td></tr>
            </tbody>
            </table>
            </div>
            <h3>tier public (allows disk)</h3>
            <div class="table-wrap">
            <table>
            \(Self.tierHeader)
            <tbody>
            <tr><td>disk</td>\(Self.tierCells([1, 0, 3, 0, 0, 0, 0, 0, 1], bytes: "6.3 KiB", exact: 6402))<td>bad-status=1 no-store=2</td></tr>
            </tbody>
            </table>
            </div>
            <h2 id="chart">Objects and bytes per tier and storage class</h2>

            """ + page.chart.svg + "</body>\n</html>\n"
        #expect(page.html == expected)
        #expect(page.chart == SVGChart(
            title: "Objects and bytes per tier and storage class",
            series: [.init(name: "objects", color: "#4e79a7"), .init(name: "bytes", color: "#f28e2b", unit: .bytes)],
            bars: [
                .init(label: "private / encrypted-disk", values: [2, 40618]), .init(label: "public / disk", values: [1, 6402]),
            ]))
    }

    @Test func violationsComeFirstAsATable() {
        var context = F.context
        context.notes = ["temporary-file disk/public/ab/cd/x.tmp"]
        var report = F.withViolations
        report.chain = AuditVerification(recordCount: 1, lastHash: F.lastHash, failure: F.chainFailure, checkpointSeq: 40)
        let page = AuditHTMLReport(report: report, context: context)
        #expect(page.title == "mediactl audit: 5 violations")
        let html = page.html
        let hostile = "&lt;b&gt;&amp;\"x'\u{FFFD}"
        #expect(html.contains("""
            <h1>mediactl audit: 5 violations</h1>
            <h2 id="summary">Summary</h2>
            <div class="table-wrap">
            <table>
            <tr><th>result</th><td class="bad">5 violations</td></tr>
            <tr><th>chain</th><td class="bad">broken: hash-mismatch at seq 2 (audit.jsonl line 2): hash 1f…, computed 2e…</td></tr>
            <tr><th>records</th><td>4 after the checkpoint at seq 40</td></tr>
            <tr><th>time range</th><td>2026-11-29T10:07:15.123Z – 2026-11-29T11:07:14.123Z</td></tr>
            <tr><th>generated</th><td>2026-11-29T11:07:15.123Z</td></tr>
            </table>
            </div>
            <h2 id="violations">Violations (5)</h2>
            <div class="table-wrap">
            <table class="cards">
            <thead><tr><th>kind</th><th>check</th><th>tier</th><th>folder</th><th>key</th><th>seq</th><th>evidence</th></tr></thead>
            <tbody>
            <tr><td data-label="kind">broken-chain</td><td data-label="check">chain intact</td><td data-label="tier"></td><td data-label="folder"></td><td data-label="key"></td><td class="n" data-label="seq">2</td><td class="t" data-label="evidence">hash-mismatch at seq 2 (audit.jsonl line 2): hash 1f…, computed 2e…</td></tr>
            <tr><td data-label="kind">unknown-tier</td><td data-label="check">tier defined by the policies</td><td data-label="tier">\(hostile)</td><td data-label="folder"></td><td data-label="key"><code>\(F.strayKey)</code></td><td class="n" data-label="seq">3</td><td class="t" data-label="evidence">store record 3 names tier \(hostile), &lt;script&gt;alert(1)&lt;/script&gt; ]]&gt; a\tb
            c&#13;d</td></tr>
            <tr><td data-label="kind">unrecorded-object</td><td data-label="check">no unrecorded object</td><td data-label="tier"></td><td data-label="folder">sealed</td><td data-label="key"><code>\(F.strayKey)</code></td><td class="n" data-label="seq"></td><td class="t" data-label="evidence">sealed/ab/ab/\(F.strayKey) (9 bytes) has no store record</td></tr>
            <tr><td data-label="kind">not-sealed</td><td data-label="check">no plaintext under sealed/</td><td data-label="tier">private</td><td data-label="folder">sealed</td><td data-label="key"><code>\(F.sealedKey)</code></td><td class="n" data-label="seq"></td><td class="t" data-label="evidence">sealed/private/fe/a8/\(F.sealedKey) (20019 bytes) is not a sealed object</td></tr>
            <tr><td data-label="kind">unrecorded-object</td><td data-label="check">no unrecorded object</td><td data-label="tier">private</td><td data-label="folder">sealed</td><td data-label="key"><code>\(F.sealedKey)</code></td><td class="n" data-label="seq"></td><td class="t" data-label="evidence">sealed/private/fe/a8/\(F.sealedKey) (20019 bytes) has no store record</td></tr>
            </tbody>
            </table>
            </div>
            <h2 id="checks">Checks (40 run, 5 failed)</h2>

            """))
        #expect(html.contains("""
            <h2 id="tiers">Tiers</h2>
            <h3>tier \(hostile) (allows nothing: not in policies)</h3>

            """))
        #expect(html.hasSuffix("""
            </svg>
            <h2 id="notes">Notes</h2>
            <ul>
            <li>temporary-file disk/public/ab/cd/x.tmp</li>
            </ul>
            </body>
            </html>

            """))
    }

    @Test func aTierWithNothingRecordedSaysSo() {
        var report = F.clean
        report.tiers.append(AuditReport.Tier(tier: "no-store", allowedStorage: AuditStorage.none, rows: []))
        #expect(AuditHTMLReport(report: report, context: F.context).html.contains("""
            <h3>tier no-store (allows none)</h3>
            <p>Nothing recorded or stored.</p>

            """))
    }

    /// python3's `html.parser` with a strict checker: valid structure, nothing external, no script,
    /// and the hostile strings come back as text (escaped, never markup).
    @Test(arguments: [false, true])
    func aStrictHTMLParserAcceptsThePage(withViolations: Bool) throws {
        var context = F.context
        context.notes = ["note <i>one</i> & \u{7}"]
        let report = withViolations ? F.withViolations : F.clean
        let summary = try HTMLCheck.check(AuditHTMLReport(report: report, context: context).html)
        #expect(summary.title == (withViolations ? "mediactl audit: 5 violations" : "mediactl audit: clean"))
        #expect(summary.counts["script"] == nil)
        #expect(summary.counts["svg"] == 1)
        #expect(summary.counts["rect"] == 2 * report.tiers.reduce(0) { $0 + $1.rows.count })
        #expect(summary.counts["h2"] == 7)
        #expect(summary.counts["div"] == summary.counts["table"])  // every table in its scrolling box
        // Summary rows + per-tier header and rows + violation header and rows + checks header, suite, case
        // and failure rows (1 + 3 suites + 27 cases clean; 1 + 4 suites + 40 cases + 5 failing with the hostile
        // and unknown tiers).
        let rows = 5 + report.tiers.reduce(0) { $0 + 1 + $1.rows.count } + (withViolations ? 1 + 5 + 50 : 31)
        #expect(summary.counts["tr"] == rows)
        #expect(summary.texts.contains("note <i>one</i> & \u{FFFD}"))
        if withViolations {
            #expect(summary.texts.contains(
                "store record 3 names tier <b>&\"x'\u{FFFD}, <script>alert(1)</script> ]]> a\tb\nc\rd"))
            #expect(summary.texts.contains("tier <b>&\"x'\u{FFFD} (allows nothing: not in policies)"))
        }
    }
}

/// The strict checker itself: each page below breaks one rule and is refused.
@Suite struct HTMLCheckTests {
    static let good = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>t</title>\n</head>\n<body>\n<p>x</p>\n</body>\n</html>\n"

    @Test func aMinimalPagePasses() throws {
        #expect(try HTMLCheck.check(Self.good).title == "t")
    }

    @Test(arguments: [
        ("<p>x</p>", "<script>alert(1)</script>", "forbidden element <script>"),
        ("<p>x</p>", "<p>x", "unclosed ['html', 'body', 'p']"),
        ("<p>x</p>", "<p>x</b></p>", "</b> closes ['p']"),
        ("<p>x</p>", "<a href=\"https://example.com/\">x</a>", "forbidden attribute href on <a>"),
        ("<p>x</p>", "<svg><image src=\"x.png\"></image></svg>", "forbidden element <image>"),
        ("<p>x</p>", "<p onclick=\"x()\">x</p>", "forbidden attribute onclick on <p>"),
        ("<p>x</p>", "<br/>", "self-closing <br/>"),
        ("<p>x</p>", "<!-- x -->", "comment"),
        (" lang=\"en\"", "", "no <html lang>"),
        ("<meta charset=\"utf-8\">", "", "no <meta charset=utf-8>"),
        ("<title>t</title>", "<title></title>", "no title"),
        ("<!DOCTYPE html>\n", "", "no doctype before <html>"),
        ("</head>", "<style>body { background: url(x.png); }</style></head>", "reference in <style>"),
    ])
    func aBrokenPageIsRefused(_ replaced: String, _ replacement: String, _ expected: String) {
        let page = Self.good.replacingOccurrences(of: replaced, with: replacement)
        #expect(page != Self.good)
        #expect(throws: HTMLCheck.Failure.self) { try HTMLCheck.check(page) }
        do {
            _ = try HTMLCheck.check(page)
        } catch {
            #expect("\(error)".contains(expected), "\(error)")
        }
    }
}
