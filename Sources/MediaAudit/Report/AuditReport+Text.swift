extension AuditReport {
    /// The counts of a tier's table, in order: the text report's columns, and the first of the HTML page's
    /// (MediaAuditReports).
    public static let columns = [
        "stored", "updated", "skipped", "evicted", "expired", "purged", "invalidated", "shredded", "objects",
        "bytes",
    ]

    /// The report as text: a chain line, a line per policy set of the log
    /// (`policy <sha256> from record 2 (policy-loaded): 14 stores`), one table per tier (a row per storage class, skip reasons and,
    /// when there are any, the variant counts below: `    variants disk: stored=2 objects=1`), then the
    /// violations or `clean: no violations`. Every line ends with `\n`.
    public var text: String {
        var out = "audit: \(recordCount) records"
            + (chain.checkpointSeq > 0 ? " after the checkpoint at seq \(chain.checkpointSeq), " : ", ")
        if let failure = chain.failure {
            out += "chain broken: \(failure.kind) at seq \(failure.seq) (\(failure.file) line \(failure.line))\n"
        } else {
            out += "chain intact, last hash \(chain.lastHash.hex)\n"
        }
        for use in policies {
            out += "policy \(use.digest) from record \(use.seq) (\(use.reason ?? "none")): \(use.stores) store\(use.stores == 1 ? "" : "s")\n"
        }
        out += Self.tierTables(tiers)
        if violations.isEmpty { return out + "\nclean: no violations\n" }
        out += "\nviolations: \(violations.count)\n"
        for violation in violations {
            var line = "  \(violation.kind)"
            if let tier = violation.tier { line += " tier=\(tier)" }
            if let folder = violation.folder { line += " folder=\(folder.rawValue)" }
            if let key = violation.key { line += " key=\(key)" }
            if let seq = violation.seq { line += " seq=\(seq)" }
            out += line + ": \(violation.evidence)\n"
        }
        return out
    }

    /// The per-tier tables of ``text``: for each tier a blank line, `tier <name> (allows <storage>)`, the
    /// column header and one line per storage class (with its skip reasons and variant counts below).
    /// The fleet totals of `mediactl audit --state-dir A --state-dir B` use the same tables.
    public static func tierTables(_ tiers: [Tier]) -> String {
        var out = ""
        for tier in tiers {
            out += "\ntier \(tier.tier) (allows \(tier.allowedStorage?.rawValue ?? "nothing: not in policies"))\n"
            out += "  " + pad("storage", 15, left: true) + Self.columns.map { pad($0, 12) }.joined() + "\n"
            for row in tier.rows {
                let values = [
                    row.stored, row.updated, row.skipped.values.reduce(0, +), row.evicted, row.expired, row.purged,
                    row.invalidated, row.shredded, row.objects, row.bytes,
                ]
                out += "  " + pad(row.storage.rawValue, 15, left: true) + values.map { pad(String($0), 12) }.joined() + "\n"
                if !row.skipped.isEmpty {
                    let reasons = row.skipped.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
                    out += "    skipped \(row.storage.rawValue): " + reasons.joined(separator: " ") + "\n"
                }
                if row.variantsStored > 0 || row.variantObjects > 0 {
                    out += "    variants \(row.storage.rawValue): stored=\(row.variantsStored) objects=\(row.variantObjects)\n"
                }
            }
        }
        return out
    }

    private static func pad(_ text: String, _ width: Int, left: Bool = false) -> String {
        let fill = String(repeating: " ", count: max(0, width - text.count))
        return left ? text + fill : fill + text
    }
}
