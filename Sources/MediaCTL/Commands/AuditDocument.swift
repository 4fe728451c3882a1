import MediaAudit
import MediaStorage

/// The output of `mediactl audit`: the reconciliation report plus the inventory's notes (temp files
/// and entries with a defect), which inform but never change the exit status.
///
/// JSON (`--json`, one document, keys sorted): the keys of ``MediaAudit/AuditReport``
/// (`clean`, `chain`, `recordCount`, `tiers`, `violations`) plus
/// `inventory: {"objects": N, "temporaryFiles": [path…], "defects": [{"path","code","detail"}…]}`.
public struct AuditDocument: Sendable, Encodable {
    /// One inventory entry with a defect.
    public struct Defect: Hashable, Sendable, Encodable {
        /// Path relative to the state directory, e.g. `disk/public/ab/cd/<hex>`.
        public var path: String
        /// The ``MediaStorage/InventoryDefect/Code`` as text, e.g. `not-sealed`.
        public var code: String
        /// The defect's detail.
        public var detail: String
    }

    /// The `inventory` member.
    public struct Inventory: Hashable, Sendable, Encodable {
        /// Entries reconciled as objects.
        public var objects: Int
        /// Leftover temp files, paths relative to the state directory.
        public var temporaryFiles: [String]
        /// Entries with a defect, by path.
        public var defects: [Defect]
    }

    /// The reconciliation report.
    public var report: AuditReport
    /// The inventory summary.
    public var inventory: Inventory
    /// The `seq` of every `start` record not preceded by a `stop`: the process before it crashed or was
    /// killed (informative: its sealed files were shredded and audited at that start).
    public var uncleanStops: [Int]

    /// Finds the `start` records not preceded by a `stop`, one record at a time in chain order.
    public struct UncleanStops: Sendable {
        private var previous: AuditEvent?
        /// The seqs found so far.
        public private(set) var seqs: [Int] = []

        public init() {}

        public mutating func add(_ record: AuditRecord) {
            if record.entry.event == .start, let previous, previous != .stop { seqs.append(record.seq) }
            previous = record.entry.event
        }
    }

    /// - Parameter uncleanStops: see ``uncleanStops``; ``UncleanStops`` finds them while the log streams.
    public init(report: AuditReport, inventory: StateInventory, uncleanStops: [Int] = []) {
        self.report = report
        self.uncleanStops = uncleanStops
        self.inventory = Inventory(
            objects: inventory.objects.count, temporaryFiles: inventory.temporaryFiles.map(\.path),
            defects: inventory.defective.compactMap { item in
                item.defect.map { Defect(path: item.path, code: $0.code.rawValue, detail: $0.detail) }
            })
    }

    /// The report's text, then (only when there are any) the notes:
    /// ```
    ///
    /// inventory notes: 2
    ///   temporary-file disk/public/ab/cd/<name>
    ///   not-sealed sealed/private/ab/cd/<hex>: no MCSE magic
    /// ```
    public var text: String {
        var out = report.text
        if !uncleanStops.isEmpty {
            out += "\nlog notes: \(uncleanStops.count)\n"
            for seq in uncleanStops {
                out += "  unclean-stop before seq \(seq): no stop record (the service crashed or was killed)\n"
            }
        }
        let count = inventory.temporaryFiles.count + inventory.defects.count
        guard count > 0 else { return out }
        out += "\ninventory notes: \(count)\n"
        for path in inventory.temporaryFiles { out += "  temporary-file \(path)\n" }
        for defect in inventory.defects { out += "  \(defect.code) \(defect.path): \(defect.detail)\n" }
        return out
    }

    /// Seqs of `start` records whose previous record is not `stop`.
    public static func uncleanStops(_ records: [AuditRecord]) -> [Int] {
        var found = UncleanStops()
        for record in records { found.add(record) }
        return found.seqs
    }

    private enum CodingKeys: String, CodingKey {
        case clean, chain, recordCount, tiers, violations, inventory, uncleanStops
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(report.isClean, forKey: .clean)
        try container.encode(report.chain, forKey: .chain)
        try container.encode(report.recordCount, forKey: .recordCount)
        try container.encode(report.tiers, forKey: .tiers)
        try container.encode(report.violations, forKey: .violations)
        try container.encode(inventory, forKey: .inventory)
        try container.encode(uncleanStops, forKey: .uncleanStops)
    }
}
