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

    @Test func aCleanReportIsAnExactPage() {
        let page = AuditHTMLReport(report: F.clean, context: F.context)
        #expect(page.title == "mediactl audit: clean")
        let expected = """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <title>mediactl audit: clean</title>
            <style>
            body { font-family: system-ui, sans-serif; margin: 2em; color: #222; }
            table { border-collapse: collapse; margin: 0.5em 0 1.5em; }
            th, td { border: 1px solid #ccc; padding: 0.2em 0.5em; text-align: left; vertical-align: top; }
            td.n { text-align: right; font-variant-numeric: tabular-nums; }
            .bad { color: #b00020; font-weight: bold; }
            .ok { color: #1b5e20; }
            code { word-break: break-all; }
            svg text { font-size: 12px; }
            </style>
            </head>
            <body>
            <h1>mediactl audit: clean</h1>
            <h2 id="summary">Summary</h2>
            <table>
            <tr><th>result</th><td class="ok">clean</td></tr>
            <tr><th>chain</th><td class="ok">intact, last hash <code>\(F.lastHash.hex)</code></td></tr>
            <tr><th>records</th><td>3</td></tr>
            <tr><th>time range</th><td>2026-11-29T10:07:15.123Z – 2026-11-29T11:07:14.123Z</td></tr>
            <tr><th>generated</th><td>2026-11-29T11:07:15.123Z</td></tr>
            </table>
            <h2 id="violations">Violations (0)</h2>
            <p class="ok">No violations.</p>
            <h2 id="tiers">Tiers</h2>
            <h3>tier private (allows encrypted-disk)</h3>
            <table>
            \(Self.tierHeader)
            <tbody>
            <tr><td>encrypted-disk</td>\(Self.cells([1, 0, 0, 0, 0, 0, 0, 0, 2, 40618, 0, 0]))<td></td></tr>
            </tbody>
            </table>
            <h3>tier public (allows disk)</h3>
            <table>
            \(Self.tierHeader)
            <tbody>
            <tr><td>disk</td>\(Self.cells([1, 0, 3, 0, 0, 0, 0, 0, 1, 6402, 0, 0]))<td>bad-status=1 no-store=2</td></tr>
            </tbody>
            </table>
            <h2 id="chart">Objects and bytes per tier and storage class</h2>

            """ + page.chart.svg + "</body>\n</html>\n"
        #expect(page.html == expected)
        #expect(page.chart == SVGChart(
            title: "Objects and bytes per tier and storage class",
            series: [.init(name: "objects", color: "#4e79a7"), .init(name: "bytes", color: "#f28e2b")],
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
            <table>
            <tr><th>result</th><td class="bad">5 violations</td></tr>
            <tr><th>chain</th><td class="bad">broken: hash-mismatch at seq 2 (audit.jsonl line 2): hash 1f…, computed 2e…</td></tr>
            <tr><th>records</th><td>4 after the checkpoint at seq 40</td></tr>
            <tr><th>time range</th><td>2026-11-29T10:07:15.123Z – 2026-11-29T11:07:14.123Z</td></tr>
            <tr><th>generated</th><td>2026-11-29T11:07:15.123Z</td></tr>
            </table>
            <h2 id="violations">Violations (5)</h2>
            <table>
            <thead><tr><th>kind</th><th>check</th><th>tier</th><th>folder</th><th>key</th><th>seq</th><th>evidence</th></tr></thead>
            <tbody>
            <tr><td>broken-chain</td><td>chain intact</td><td></td><td></td><td><code></code></td><td class="n">2</td><td>hash-mismatch at seq 2 (audit.jsonl line 2): hash 1f…, computed 2e…</td></tr>
            <tr><td>unknown-tier</td><td>tier defined by the policies</td><td>\(hostile)</td><td></td><td><code>\(F.strayKey)</code></td><td class="n">3</td><td>store record 3 names tier \(hostile), &lt;script&gt;alert(1)&lt;/script&gt; ]]&gt; a\tb
            c&#13;d</td></tr>
            <tr><td>unrecorded-object</td><td>no unrecorded object</td><td></td><td>sealed</td><td><code>\(F.strayKey)</code></td><td class="n"></td><td>sealed/ab/ab/\(F.strayKey) (9 bytes) has no store record</td></tr>
            <tr><td>not-sealed</td><td>no plaintext under sealed/</td><td>private</td><td>sealed</td><td><code>\(F.sealedKey)</code></td><td class="n"></td><td>sealed/private/fe/a8/\(F.sealedKey) (20019 bytes) is not a sealed object</td></tr>
            <tr><td>unrecorded-object</td><td>no unrecorded object</td><td>private</td><td>sealed</td><td><code>\(F.sealedKey)</code></td><td class="n"></td><td>sealed/private/fe/a8/\(F.sealedKey) (20019 bytes) has no store record</td></tr>
            </tbody>
            </table>
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
        #expect(summary.counts["h2"] == 5)
        // Summary rows + per-tier header and rows + violation header and rows.
        let rows = 5 + report.tiers.reduce(0) { $0 + 1 + $1.rows.count } + (withViolations ? 1 + 5 : 0)
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
