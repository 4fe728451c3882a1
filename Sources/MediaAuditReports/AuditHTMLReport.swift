import MediaAudit

/// An ``MediaAudit/AuditReport`` as one self-contained HTML5 page for people: no script, no external asset (styles
/// inline, the chart inline SVG), every text escaped by ``XMLEscaping``, readable from a phone's 390 CSS pixels
/// up without scrolling sideways (``HTMLPage``: viewport, tables scrolling in their own box, long hashes
/// breaking, the chart shrinking).
///
/// Sections, in order (each an `<h2>` with an `id`; every table in a `<div class="table-wrap">`):
/// - `summary`: a table of `result` (`clean` or `N violation(s)`), `chain` (`intact, last hash <hex>` or
///   `broken: <kind> at seq N (<file> line L): <detail>`), `records` (with `after the checkpoint at seq N`
///   after a prune), `time range` (``MediaAudit/AuditReportContext/TimeRange/text``) and `generated`
///   (``MediaAudit/AuditReportContext/generatedAt``, RFC 3339);
/// - `violations`: a table (`class="cards"`: one card per violation on a narrow screen; every cell with
///   its column's name as `data-label`) of `kind`, `check`, `tier`, `folder`, `key`, `seq`, `evidence`, in
///   report order (or `No violations.`);
/// - `checks`: every check that ran, exactly the test cases of ``AuditJUnitReport/suites`` in their order
///   (see ``checks(_:_:)``);
/// - `policies`: the policy sets put in force, as the text report lists them (see ``policies(_:_:)``);
/// - `tiers`: per tier an `<h3>` (`tier <name> (allows <storage>)`) and a table with one row per storage
///   class: the record counts of the text report, `objects`, `bytes` (``ByteSize/text``, the exact count
///   in the cell's `title`), `variants stored`, `variant objects` and the skip reasons (`reason=N`, sorted);
/// - `chart`: an ``SVGChart`` of objects and bytes per tier and storage class;
/// - `notes`: the context's notes as a list (only when there are any).
///
/// The document: `<!DOCTYPE html>`, `<html lang="en">`, `<meta charset="utf-8">`, `<meta name="viewport"
/// content="width=device-width, initial-scale=1">`, a `<title>` equal to the `<h1>` (`mediactl audit:
/// clean` or `mediactl audit: N violation(s)`). Every line ends with `\n`.
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

    /// The chart of the `chart` section: series `objects` and `bytes` (in ``SVGChart/Series/Unit/bytes``),
    /// one group per (tier, storage class) row of the report, labelled `<tier> / <storage>`.
    public var chart: SVGChart {
        SVGChart(
            title: "Objects and bytes per tier and storage class",
            series: [
                SVGChart.Series(name: "objects", color: "#4e79a7"),
                SVGChart.Series(name: "bytes", color: "#f28e2b", unit: .bytes),
            ],
            bars: report.tiers.flatMap { tier in
                tier.rows.map { SVGChart.Bar(label: "\(tier.tier) / \($0.storage.rawValue)", values: [$0.objects, $0.bytes]) }
            })
    }

    /// The page (see the type's documentation).
    public var html: String {
        var out = HTMLPage.head(title: title)
        out += "<h1>\(escape(title))</h1>\n"
        out += sections()
        return out + "</body>\n</html>\n"
    }

    /// The sections of the page's body after the `<h1>` (see the type's documentation): headings at
    /// `level` (tiers one below), ids prefixed with `idPrefix`. ``AuditFleetHTMLReport`` shows each replica
    /// with `level` 3 and the prefix `replica-N-`.
    public func sections(idPrefix: String = "", level: Int = 2) -> String {
        let h = "h\(level)"
        var out = summary(h, idPrefix) + violations(h, idPrefix) + checks(h, idPrefix) + policies(h, idPrefix)
        out += tiers(h, "h\(level + 1)", idPrefix)
        out += "<\(h) id=\"\(idPrefix)chart\">\(escape(chart.title))</\(h)>\n" + chart.svg
        if !context.notes.isEmpty {
            out += "<\(h) id=\"\(idPrefix)notes\">Notes</\(h)>\n<ul>\n"
            for note in context.notes { out += "<li>\(escape(note))</li>\n" }
            out += "</ul>\n"
        }
        return out
    }

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
        var out = "<\(h) id=\"\(idPrefix)summary\">Summary</\(h)>\n" + HTMLPage.tableStart
        out += "<tr><th>result</th><td class=\"\(report.isClean ? "ok" : "bad")\">\(escape(result))</td></tr>\n"
        out += "<tr><th>chain</th>\(chainCell)</tr>\n"
        out += "<tr><th>records</th><td>\(escape(records))</td></tr>\n"
        out += "<tr><th>time range</th><td>\(escape(context.records.text))</td></tr>\n"
        out += "<tr><th>generated</th><td>\(context.generatedAt.rfc3339)</td></tr>\n"
        return out + HTMLPage.tableEnd
    }

    private func violations(_ h: String, _ idPrefix: String) -> String {
        var out = "<\(h) id=\"\(idPrefix)violations\">Violations (\(report.violations.count))</\(h)>\n"
        guard !report.violations.isEmpty else { return out + "<p class=\"ok\">No violations.</p>\n" }
        out += HTMLPage.cardsTableStart + HTMLPage.header(["kind", "check", "tier", "folder", "key", "seq", "evidence"])
            + "<tbody>\n"
        for violation in report.violations {
            let cells = [
                "<td data-label=\"kind\">\(escape(violation.kind.rawValue))</td>",
                "<td data-label=\"check\">\(escape(AuditCheck.check(for: violation.kind).name))</td>",
                "<td data-label=\"tier\">\(escape(violation.tier ?? ""))</td>",
                "<td data-label=\"folder\">\(escape(violation.folder?.rawValue ?? ""))</td>",
                "<td data-label=\"key\">" + (violation.key.map { "<code>\(escape($0))</code>" } ?? "") + "</td>",
                "<td class=\"n\" data-label=\"seq\">\(violation.seq.map(String.init) ?? "")</td>",
                "<td class=\"t\" data-label=\"evidence\">\(escape(violation.evidence))</td>",
            ]
            out += "<tr>" + cells.joined() + "</tr>\n"
        }
        return out + "</tbody>\n" + HTMLPage.tableEnd
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
            out += HTMLPage.tableStart + HTMLPage.header(["storage"] + headers) + "<tbody>\n"
            for row in tier.rows {
                let counts = [
                    row.stored, row.updated, row.skipped.values.reduce(0, +), row.evicted, row.expired, row.purged,
                    row.invalidated, row.shredded, row.objects,
                ]
                let reasons = row.skipped.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
                out += "<tr><td>\(row.storage.rawValue)</td>" + counts.map { "<td class=\"n\">\($0)</td>" }.joined()
                    + HTMLPage.bytesCell(row.bytes) + "<td class=\"n\">\(row.variantsStored)</td>"
                    + "<td class=\"n\">\(row.variantObjects)</td><td>\(XMLEscaping.text(reasons))</td></tr>\n"
            }
            out += "</tbody>\n" + HTMLPage.tableEnd
        }
        return out
    }

    private func escape(_ text: String) -> String { XMLEscaping.text(text) }
}
