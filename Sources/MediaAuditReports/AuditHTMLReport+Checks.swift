import MediaAudit

extension AuditHTMLReport {
    /// The `checks` section: `<hN id="checks">Checks (C run, F failed)</hN>` (C test cases, F of them with a
    /// failure, as the JUnit root's `tests` and `failures`), then one table of the test cases of
    /// ``AuditJUnitReport/suites`` for this report and context, in their order, columns `check` and
    /// `result`: per suite a row `<tr><th colspan="2" class="suite">SUITE</th></tr>`, then per case
    /// `<tr><td>CHECK</td><td class="ok">pass</td></tr>`, or `<tr><td>CHECK</td><td class="bad">fail</td></tr>`
    /// followed by `<tr><td colspan="2" class="failure">…</td></tr>` with its failures' messages (the
    /// violations' evidence, as the JUnit `message`s) joined by `<br>`. The same source as the JUnit report,
    /// so the two always list the same checks.
    func checks(_ h: String, _ idPrefix: String) -> String {
        let suites = AuditJUnitReport(report: report, context: context).suites
        let run = suites.reduce(0) { $0 + $1.cases.count }, failed = suites.reduce(0) { $0 + $1.failureCount }
        var out = "<\(h) id=\"\(idPrefix)checks\">Checks (\(run) run, \(failed) failed)</\(h)>\n"
        out += HTMLPage.tableStart + HTMLPage.header(["check", "result"]) + "<tbody>\n"
        for suite in suites {
            out += "<tr><th colspan=\"2\" class=\"suite\">\(XMLEscaping.text(suite.name))</th></tr>\n"
            for testCase in suite.cases {
                out += "<tr><td>\(XMLEscaping.text(testCase.name))</td>"
                if testCase.failures.isEmpty {
                    out += "<td class=\"ok\">pass</td></tr>\n"
                } else {
                    out += "<td class=\"bad\">fail</td></tr>\n<tr><td colspan=\"2\" class=\"failure\">"
                        + testCase.failures.map { XMLEscaping.text($0.evidence) }.joined(separator: "<br>") + "</td></tr>\n"
                }
            }
        }
        return out + "</tbody>\n" + HTMLPage.tableEnd
    }

    /// The `policies` section: `<hN id="policies">Policies in force (N)</hN>` and a table of
    /// ``MediaAudit/AuditReport/policies`` in log order, the data of the text report's `policy <sha256> from
    /// record S (<reason>): N stores` lines: `from record` (S), `policy set (sha256)` (in `<code>`),
    /// `reason` (`none` when the record has none) and `stores`; or `<p>No policy record in the log.</p>`.
    func policies(_ h: String, _ idPrefix: String) -> String {
        var out = "<\(h) id=\"\(idPrefix)policies\">Policies in force (\(report.policies.count))</\(h)>\n"
        guard !report.policies.isEmpty else { return out + "<p>No policy record in the log.</p>\n" }
        out += HTMLPage.tableStart + HTMLPage.header(["from record", "policy set (sha256)", "reason", "stores"]) + "<tbody>\n"
        for use in report.policies {
            out += "<tr><td class=\"n\">\(use.seq)</td><td><code>\(XMLEscaping.text(use.digest))</code></td>"
                + "<td>\(XMLEscaping.text(use.reason ?? "none"))</td><td class=\"n\">\(use.stores)</td></tr>\n"
        }
        return out + "</tbody>\n" + HTMLPage.tableEnd
    }
}
