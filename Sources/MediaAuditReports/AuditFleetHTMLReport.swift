import MediaAudit

/// An ``MediaAudit/AuditFleet`` as one self-contained HTML5 page: the fleet's totals first, then a section per
/// replica with everything ``AuditHTMLReport`` shows for one state directory. No script, no external asset,
/// every text escaped by ``XMLEscaping``; every line ends with `\n`. The head (charset, viewport, style) and the
/// phone-width layout are ``AuditHTMLReport``'s (``HTMLPage``); every table sits in a `<div class="table-wrap">`, the
/// totals table is `class="cards"` (a card per replica on a narrow screen, each cell with its column's name
/// as `data-label`).
///
/// - `<title>` and `<h1>`: ``title``.
/// - `<h2 id="totals">Fleet totals</h2>`: a table with one row per replica — its number, `state directory`, `result` (`clean` or `N violation(s)`), `chain` (`intact` or
///   `broken: <kind> at seq N`), `records`, `objects`, `bytes` (``ByteSize/text``, the exact count in the cell's `title`) — and a last
///   row `fleet` with the sums;
///   then the summed tier tables (`<h3>tier <name> (allows <storage>)</h3>` and a table each, as
///   ``AuditHTMLReport``'s `tiers` section).
/// - Per replica `i`: `<h2 id="replica-i">Replica i: <state directory></h2>`, then
///   ``AuditHTMLReport/sections(idPrefix:level:)`` with headings `<h3>` (tiers `<h4>`) and ids
///   `replica-i-summary`, `replica-i-violations`, `replica-i-checks`, `replica-i-policies`, `replica-i-tiers`,
///   `replica-i-chart`, `replica-i-notes`; its
///   `generated` line is the fleet's ``context``.
public struct AuditFleetHTMLReport: Hashable, Sendable {
    /// The fleet rendered.
    public let fleet: AuditFleet
    /// When the audit ran (each replica's records and notes are its own context's).
    public let context: AuditReportContext

    public init(fleet: AuditFleet, context: AuditReportContext) {
        self.fleet = fleet
        self.context = context
    }

    /// `mediactl audit: 2 replicas, clean`, `mediactl audit: 3 replicas, 1 violation`,
    /// `mediactl audit: 2 replicas, 4 violations`.
    public var title: String {
        let count = fleet.replicas.count
        return "mediactl audit: \(count) replica\(count == 1 ? "" : "s"), " + Self.result(totals.violationCount)
    }

    private var totals: AuditFleet.Totals { fleet.totals }

    /// The page (see the type's documentation).
    public var html: String {
        let totals = self.totals
        var out = HTMLPage.head(title: title) + "<h1>\(escape(title))</h1>\n"
        out += "<h2 id=\"totals\">Fleet totals</h2>\n" + HTMLPage.cardsTableStart
            + HTMLPage.header(["replica", "state directory", "result", "chain", "records", "objects", "bytes"]) + "<tbody>\n"
        for (offset, replica) in fleet.replicas.enumerated() {
            let report = replica.report
            let chain = report.chain.failure.map { "broken: \($0.kind) at seq \($0.seq)" } ?? "intact"
            let rows = report.tiers.flatMap(\.rows)
            out += "<tr><td class=\"n\" data-label=\"replica\">\(offset + 1)</td>"
                + "<td data-label=\"state directory\"><code>\(escape(replica.name))</code></td>"
                + "<td class=\"\(report.isClean ? "ok" : "bad")\" data-label=\"result\">\(Self.result(report.violations.count))</td>"
                + "<td class=\"\(report.chain.failure == nil ? "ok" : "bad")\" data-label=\"chain\">\(escape(chain))</td>"
                + "<td class=\"n\" data-label=\"records\">\(report.recordCount)</td>"
                + "<td class=\"n\" data-label=\"objects\">\(rows.reduce(0) { $0 + $1.objects })</td>"
                + HTMLPage.bytesCell(rows.reduce(0) { $0 + $1.bytes }, label: "bytes") + "</tr>\n"
        }
        let intact = totals.replicas - totals.brokenChains.count
        out += "<tr><th colspan=\"2\">fleet</th>"
            + "<td class=\"\(totals.isClean ? "ok" : "bad")\" data-label=\"result\">\(Self.result(totals.violationCount))</td>"
            + "<td class=\"\(totals.brokenChains.isEmpty ? "ok" : "bad")\" data-label=\"chain\">\(intact) of \(totals.replicas) intact</td>"
            + "<td class=\"n\" data-label=\"records\">\(totals.recordCount)</td>"
            + "<td class=\"n\" data-label=\"objects\">\(totals.objects)</td>"
            + HTMLPage.bytesCell(totals.bytes, label: "bytes") + "</tr>\n"
        out += "</tbody>\n" + HTMLPage.tableEnd + AuditHTMLReport.tierTables(totals.tiers, heading: "h3")
        for (offset, replica) in fleet.replicas.enumerated() {
            var replicaContext = replica.context
            replicaContext.generatedAt = context.generatedAt
            out += "<h2 id=\"replica-\(offset + 1)\">\(escape("Replica \(offset + 1): \(replica.name)"))</h2>\n"
            out += AuditHTMLReport(report: replica.report, context: replicaContext)
                .sections(idPrefix: "replica-\(offset + 1)-", level: 3)
        }
        return out + "</body>\n</html>\n"
    }

    static func result(_ violations: Int) -> String {
        switch violations {
        case 0: "clean"
        case 1: "1 violation"
        case let count: "\(count) violations"
        }
    }

    private func escape(_ text: String) -> String { XMLEscaping.text(text) }
}
