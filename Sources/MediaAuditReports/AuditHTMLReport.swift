import MediaAudit

/// An ``MediaAudit/AuditReport`` as one self-contained HTML5 page for people: no script, no external asset (styles
/// inline, the chart inline SVG), every text escaped by ``XMLEscaping``.
///
/// Sections, in order (each an `<h2>` with an `id`):
/// - `summary`: a table of `result` (`clean` or `N violation(s)`), `chain` (`intact, last hash <hex>` or
///   `broken: <kind> at seq N (<file> line L): <detail>`), `records` (with `after the checkpoint at seq N`
///   after a prune), `time range` (``MediaAudit/AuditReportContext/TimeRange/text``) and `generated`
///   (``MediaAudit/AuditReportContext/generatedAt``, RFC 3339);
/// - `violations`: a table of `kind`, `check`, `tier`, `folder`, `key`, `seq`, `evidence`, in report
///   order (or `No violations.`);
/// - `tiers`: per tier an `<h3>` (`tier <name> (allows <storage>)`) and a table with one row per storage
///   class: the record counts of the text report, `objects`, `bytes`, `variants stored`, `variant
///   objects` and the skip reasons (`reason=N`, sorted);
/// - `chart`: an ``SVGChart`` of objects and bytes per tier and storage class;
/// - `notes`: the context's notes as a list (only when there are any).
///
/// The document: `<!DOCTYPE html>`, `<html lang="en">`, `<meta charset="utf-8">`, a `<title>` equal to the
/// `<h1>` (`mediactl audit: clean` or `mediactl audit: N violation(s)`). Every line ends with `\n`.
public struct AuditHTMLReport: Hashable, Sendable {
    /// The report rendered.
    public let report: AuditReport
    /// When it ran, the records' time range and the notes.
    public let context: AuditReportContext

    public init(report: AuditReport, context: AuditReportContext) {
        self.report = report
        self.context = context
    }

    /// The page title and `<h1>`: `mediactl audit: clean`, `mediactl audit: 1 violation`,
    /// `mediactl audit: 3 violations`.
    public var title: String { "mediactl audit: " + result }

    /// The chart of the `chart` section: series `objects` and `bytes`, one bar per (tier, storage
    /// class) row of the report, labelled `<tier> / <storage>`.
    public var chart: SVGChart {
        SVGChart(
            title: "Objects and bytes per tier and storage class",
            series: [
                SVGChart.Series(name: "objects", color: "#4e79a7"),
                SVGChart.Series(name: "bytes", color: "#f28e2b"),
            ],
            bars: report.tiers.flatMap { tier in
                tier.rows.map { SVGChart.Bar(label: "\(tier.tier) / \($0.storage.rawValue)", values: [$0.objects, $0.bytes]) }
            })
    }

    /// The page (see the type's documentation).
    public var html: String {
        var out = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        out += "<title>\(escape(title))</title>\n<style>\n\(Self.style)</style>\n</head>\n<body>\n"
        out += "<h1>\(escape(title))</h1>\n"
        out += sections()
        return out + "</body>\n</html>\n"
    }

    /// The sections of the page's body after the `<h1>` (see the type's documentation): headings at
    /// `level` (tiers one below), ids prefixed with `idPrefix`. ``AuditFleetHTMLReport`` shows each replica
    /// with `level` 3 and the prefix `replica-N-`.
    public func sections(idPrefix: String = "", level: Int = 2) -> String {
        let h = "h\(level)"
        var out = summary(h, idPrefix) + violations(h, idPrefix) + tiers(h, "h\(level + 1)", idPrefix)
        out += "<\(h) id=\"\(idPrefix)chart\">\(escape(chart.title))</\(h)>\n" + chart.svg
        if !context.notes.isEmpty {
            out += "<\(h) id=\"\(idPrefix)notes\">Notes</\(h)>\n<ul>\n"
            for note in context.notes { out += "<li>\(escape(note))</li>\n" }
            out += "</ul>\n"
        }
        return out
    }

    static let style = """
        body { font-family: system-ui, sans-serif; margin: 2em; color: #222; }
        table { border-collapse: collapse; margin: 0.5em 0 1.5em; }
        th, td { border: 1px solid #ccc; padding: 0.2em 0.5em; text-align: left; vertical-align: top; }
        td.n { text-align: right; font-variant-numeric: tabular-nums; }
        .bad { color: #b00020; font-weight: bold; }
        .ok { color: #1b5e20; }
        code { word-break: break-all; }
        svg text { font-size: 12px; }

        """

    private var result: String {
        switch report.violations.count {
        case 0: "clean"
        case 1: "1 violation"
        case let count: "\(count) violations"
        }
    }

    private func summary(_ h: String, _ idPrefix: String) -> String {
        let chain = report.chain
        let chainCell: String
        if let failure = chain.failure {
            chainCell = "<td class=\"bad\">" + escape(
                "broken: \(failure.kind) at seq \(failure.seq) (\(failure.file) line \(failure.line)): \(failure.detail)")
                + "</td>"
        } else {
            chainCell = "<td class=\"ok\">intact, last hash <code>\(chain.lastHash.hex)</code></td>"
        }
        let records = "\(report.recordCount)"
            + (chain.checkpointSeq > 0 ? " after the checkpoint at seq \(chain.checkpointSeq)" : "")
        var out = "<\(h) id=\"\(idPrefix)summary\">Summary</\(h)>\n<table>\n"
        out += "<tr><th>result</th><td class=\"\(report.isClean ? "ok" : "bad")\">\(escape(result))</td></tr>\n"
        out += "<tr><th>chain</th>\(chainCell)</tr>\n"
        out += "<tr><th>records</th><td>\(escape(records))</td></tr>\n"
        out += "<tr><th>time range</th><td>\(escape(context.records.text))</td></tr>\n"
        out += "<tr><th>generated</th><td>\(context.generatedAt.rfc3339)</td></tr>\n"
        return out + "</table>\n"
    }

    private func violations(_ h: String, _ idPrefix: String) -> String {
        var out = "<\(h) id=\"\(idPrefix)violations\">Violations (\(report.violations.count))</\(h)>\n"
        guard !report.violations.isEmpty else { return out + "<p class=\"ok\">No violations.</p>\n" }
        out += "<table>\n<thead><tr>"
            + ["kind", "check", "tier", "folder", "key", "seq", "evidence"].map { "<th>\($0)</th>" }.joined()
            + "</tr></thead>\n<tbody>\n"
        for violation in report.violations {
            let cells = [
                "<td>\(escape(violation.kind.rawValue))</td>",
                "<td>\(escape(AuditCheck.check(for: violation.kind).name))</td>",
                "<td>\(escape(violation.tier ?? ""))</td>",
                "<td>\(escape(violation.folder?.rawValue ?? ""))</td>",
                "<td><code>\(escape(violation.key ?? ""))</code></td>",
                "<td class=\"n\">\(violation.seq.map(String.init) ?? "")</td>",
                "<td>\(escape(violation.evidence))</td>",
            ]
            out += "<tr>" + cells.joined() + "</tr>\n"
        }
        return out + "</tbody>\n</table>\n"
    }

    private func tiers(_ h: String, _ h3: String, _ idPrefix: String) -> String {
        "<\(h) id=\"\(idPrefix)tiers\">Tiers</\(h)>\n" + Self.tierTables(report.tiers, heading: h3)
    }

    /// One `<h3>` (or `heading`) and table per tier, as the `tiers` section shows them; the fleet totals
    /// of ``AuditFleetHTMLReport`` use the same tables.
    static func tierTables(_ tiers: [AuditReport.Tier], heading h3: String) -> String {
        var out = ""
        let headers = AuditReport.columns + ["variants stored", "variant objects", "skip reasons"]
        for tier in tiers {
            let allows = tier.allowedStorage?.rawValue ?? "nothing: not in policies"
            out += "<\(h3)>\(XMLEscaping.text("tier \(tier.tier) (allows \(allows))"))</\(h3)>\n"
            guard !tier.rows.isEmpty else {
                out += "<p>Nothing recorded or stored.</p>\n"
                continue
            }
            out += "<table>\n<thead><tr><th>storage</th>" + headers.map { "<th>\($0)</th>" }.joined()
                + "</tr></thead>\n<tbody>\n"
            for row in tier.rows {
                let counts = [
                    row.stored, row.updated, row.skipped.values.reduce(0, +), row.evicted, row.expired, row.purged,
                    row.invalidated, row.shredded, row.objects, row.bytes, row.variantsStored, row.variantObjects,
                ]
                let reasons = row.skipped.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
                out += "<tr><td>\(row.storage.rawValue)</td>" + counts.map { "<td class=\"n\">\($0)</td>" }.joined()
                    + "<td>\(XMLEscaping.text(reasons))</td></tr>\n"
            }
            out += "</tbody>\n</table>\n"
        }
        return out
    }

    private func escape(_ text: String) -> String { XMLEscaping.text(text) }
}
