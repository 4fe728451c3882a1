import Foundation
import MediaTestSupport
import Testing

@testable import MediaAudit
@testable import MediaAuditReports

/// The page's `checks` and `policies` sections and its phone-width head.
@Suite struct AuditHTMLReportSectionsTests {
    typealias F = RenderingFixtures

    @Test func theHeadHasTheViewportAfterTheCharset() {
        let html = AuditHTMLReport(report: F.clean, context: F.context).html
        #expect(html.hasPrefix("""
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>mediactl audit: clean</title>
            <style>

            """))
        #expect(!html.contains(" style=\""))  // styles only in the head's sheet
    }

    /// One failing check per failing case, its failures' evidence joined by `<br>`; the suites as JUnit
    /// orders them (tiers sorted, `tier unknown` for the violation that names none).
    @Test func theChecksSectionIsAnExactTable() {
        var report = F.withViolations
        report.violations.removeFirst()  // the broken chain: chain intact passes
        report.tiers.removeFirst()  // the hostile tier: it comes back for its violation, without a row
        report.violations[0] = AuditViolation(
            kind: .unknownTier, tier: "private", key: F.strayKey, seq: 3, evidence: report.violations[0].evidence)
        let html = AuditHTMLReport(report: report, context: F.context).html
        func rows(_ suite: String, failing: [String: [String]]) -> String {
            "<tr><th colspan=\"2\" class=\"suite\">\(suite)</th></tr>\n" + F.tierCheckNames.map { name in
                guard let messages = failing[name] else { return "<tr><td>\(name)</td><td class=\"ok\">pass</td></tr>\n" }
                return "<tr><td>\(name)</td><td class=\"bad\">fail</td></tr>\n"
                    + "<tr><td colspan=\"2\" class=\"failure\">\(messages.joined(separator: "<br>"))</td></tr>\n"
            }.joined()
        }
        let sealed = "sealed/private/fe/a8/\(F.sealedKey) (20019 bytes)"
        let expected = """
            <h2 id="checks">Checks (27 run, 4 failed)</h2>
            <div class="table-wrap">
            <table>
            <thead><tr><th>check</th><th>result</th></tr></thead>
            <tbody>
            <tr><th colspan="2" class="suite">audit-log</th></tr>
            <tr><td>chain intact</td><td class="ok">pass</td></tr>

            """ + rows("tier private", failing: [
                "no plaintext under sealed/": ["\(sealed) is not a sealed object"],
                "no unrecorded object": ["\(sealed) has no store record"],
                "tier defined by the policies": [
                    "store record 3 names tier &lt;b&gt;&amp;\"x'\u{FFFD}, &lt;script&gt;alert(1)&lt;/script&gt; ]]&gt; a\tb\nc&#13;d",
                ],
            ]) + rows("tier unknown", failing: [
                "no unrecorded object": ["sealed/ab/ab/\(F.strayKey) (9 bytes) has no store record"],
            ]) + """
            </tbody>
            </table>
            </div>
            <h2 id="policies">
            """
        #expect(html.contains(expected))
    }

    /// Two violations of one check in one suite: one failing row, both messages.
    @Test func aCheckWithTwoFailuresListsBoth() {
        var report = F.clean
        report.violations = [
            AuditViolation(kind: .unrecordedObject, tier: "public", key: F.strayKey, folder: .disk, evidence: "a <1>"),
            AuditViolation(kind: .unrecordedObject, tier: "public", key: F.sealedKey, folder: .disk, evidence: "b & 2"),
        ]
        let html = AuditHTMLReport(report: report, context: F.context).html
        #expect(html.contains("<h2 id=\"checks\">Checks (27 run, 1 failed)</h2>\n"))
        #expect(html.contains("<tr><td>no unrecorded object</td><td class=\"bad\">fail</td></tr>\n"
            + "<tr><td colspan=\"2\" class=\"failure\">a &lt;1&gt;<br>b &amp; 2</td></tr>\n"))
    }

    /// The page lists exactly the JUnit report's test cases, in order, under its suites' names: read back
    /// from both documents (XML attributes, HTML text), not from the shared `suites`.
    @Test(arguments: [false, true])
    func theChecksAreExactlyTheJUnitTestCases(withViolations: Bool) throws {
        let report = withViolations ? F.withViolations : F.clean
        let junit = try XMLNode.parse(AuditJUnitReport(report: report, context: F.context).xml)
        var fromJUnit: [String] = []
        for suite in junit.descendants("testsuite") {
            fromJUnit.append("suite " + (suite.attributes["name"] ?? ""))
            for testCase in suite.descendants("testcase") {
                let failed = !testCase.descendants("failure").isEmpty
                fromJUnit.append((testCase.attributes["name"] ?? "") + (failed ? ": fail" : ": pass"))
            }
        }
        let html = AuditHTMLReport(report: report, context: F.context).html
        let start = try #require(html.range(of: "<h2 id=\"checks\">")), end = try #require(html.range(of: "<h2 id=\"policies\">"))
        let section = String(html[start.upperBound..<end.lowerBound])
        let row = try Regex(#"<tr><th colspan="2" class="suite">([^<]*)</th></tr>|<tr><td>([^<]*)</td><td class="[a-z]+">(pass|fail)</td>"#)
        let fromHTML = section.matches(of: row).map { match in
            if let suite = match.output[1].substring { return "suite " + Self.unescape(String(suite)) }
            return Self.unescape(String(match.output[2].substring ?? "")) + ": " + String(match.output[3].substring ?? "")
        }
        #expect(fromJUnit.count == (withViolations ? 44 : 30))  // 4 or 3 suites, 40 or 27 cases
        #expect(fromHTML == fromJUnit)
    }

    @Test func thePolicyHistoryIsATableOfTheTextReportsData() {
        var report = F.clean
        let first = String(repeating: "5e", count: 32), second = String(repeating: "a0", count: 32)
        report.policies = [
            AuditReport.PolicyUse(digest: first, seq: 2, reason: "policy-loaded", stores: 14),
            AuditReport.PolicyUse(digest: second, seq: 40, reason: nil, stores: 1),
        ]
        #expect(report.text.contains("""
            policy \(first) from record 2 (policy-loaded): 14 stores
            policy \(second) from record 40 (none): 1 store

            """))
        let html = AuditHTMLReport(report: report, context: F.context).html
        #expect(html.contains("""
            <h2 id="policies">Policies in force (2)</h2>
            <div class="table-wrap">
            <table>
            <thead><tr><th>from record</th><th>policy set (sha256)</th><th>reason</th><th>stores</th></tr></thead>
            <tbody>
            <tr><td class="n">2</td><td><code>\(first)</code></td><td>policy-loaded</td><td class="n">14</td></tr>
            <tr><td class="n">40</td><td><code>\(second)</code></td><td>none</td><td class="n">1</td></tr>
            </tbody>
            </table>
            </div>
            <h2 id="tiers">Tiers</h2>

            """))
    }

    private static func unescape(_ text: String) -> String {
        text.replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&amp;", with: "&")
    }
}
