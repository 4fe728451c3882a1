import MediaAudit
import MediaStorage

/// The output of `mediactl audit`: the reconciliation report plus the inventory's notes (temp files
/// and entries with a defect), which inform but never change the exit status.
///
/// JSON (`--json`, one document, keys sorted): the keys of ``MediaAudit/AuditReport``
/// (`clean`, `chain`, `recordCount`, `tiers`, `violations`; each `tiers[].rows[]` with the variant counts
/// `variantsStored` and `variantObjects`) plus
/// `inventory: {"objects": N, "temporaryFiles": [path…], "defects": [{"path","code","detail"}…]}`, and the
/// log notes `uncleanStops: [seq…]`, `repairedTornTails: [{"seq","bytes"}…]`, `deadServicePid: pid or null`.
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
    /// Every `start` record with reason `repaired-torn-tail`: at that start the log's last line was
    /// incomplete or did not parse and was cut away (a write cut short by a crash, or an edit of the end).
    public var repairedTornTails: [RepairedTornTail]
    /// The pid in `serve.json` when that process is not running: the service was killed and its sealed
    /// files stay until the next start shreds them. `nil` when no `serve.json` or its process runs.
    public var deadServicePid: Int32?
    /// Set when the policies the audit judged by are not the set in force at the end of the log (docs/audit-report.md,
    /// "Which policies"): ``text`` says so first, and JSON has `policiesMismatch`.
    public var policiesMismatch: PoliciesMismatch?

    /// The policies given (`--policies`, or `./Policies` by default) against the log's last `policy` batch.
    public struct PoliciesMismatch: Hashable, Sendable, Encodable {
        /// The directory the audit loaded.
        public var directory: String
        /// Hex SHA-256 of its files (what `mediactl policy check` prints).
        public var digest: String
        /// Hex SHA-256 of the set in force at the end of the log, and the `seq` of its batch.
        public var inForce: String
        public var seq: Int

        /// The one line ``AuditDocument/text`` starts with (and `audit` writes to stderr as a warning).
        public var line: String {
            "policies \(directory) (sha256 \(digest)) are not the set in force at the end of the log (sha256 \(inForce), "
                + "seq \(seq)): objects are judged by \(directory); give --policies the directory serve ran with "
                + "(a serve given --origin records a digest that includes its overrides)"
        }
    }

    /// A `repaired-torn-tail` start: its `seq` and the bytes removed.
    public struct RepairedTornTail: Hashable, Sendable, Encodable {
        public var seq: Int
        public var bytes: Int
    }

    /// Finds, one record at a time in chain order, the `start` records not preceded by a `stop` and those
    /// that repaired a torn tail.
    public struct LogNotes: Sendable {
        private var previous: AuditEvent?
        /// The unclean stops found so far (``AuditDocument/uncleanStops``).
        public private(set) var uncleanStops: [Int] = []
        /// The repaired tails found so far (``AuditDocument/repairedTornTails``).
        public private(set) var repairedTornTails: [RepairedTornTail] = []

        public init() {}

        public mutating func add(_ record: AuditRecord) {
            if record.entry.event == .start {
                if let previous, previous != .stop { uncleanStops.append(record.seq) }
                if record.entry.reason == .repairedTornTail {
                    repairedTornTails.append(RepairedTornTail(seq: record.seq, bytes: record.entry.bytes ?? 0))
                }
            }
            previous = record.entry.event
        }
    }

    /// - Parameters:
    ///   - notes: what ``LogNotes`` found while the log streamed.
    ///   - deadServicePid: see ``deadServicePid``.
    public init(report: AuditReport, inventory: StateInventory, notes: LogNotes = LogNotes(),
                deadServicePid: Int32? = nil) {
        self.report = report
        self.uncleanStops = notes.uncleanStops
        self.repairedTornTails = notes.repairedTornTails
        self.deadServicePid = deadServicePid
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
        var out = (policiesMismatch.map { $0.line + "\n\n" } ?? "") + report.text
        let logNotes = logNoteLines
        if !logNotes.isEmpty {
            out += "\nlog notes: \(logNotes.count)\n" + logNotes.map { "  \($0)\n" }.joined()
        }
        let inventoryNotes = inventoryNoteLines
        guard !inventoryNotes.isEmpty else { return out }
        return out + "\ninventory notes: \(inventoryNotes.count)\n" + inventoryNotes.map { "  \($0)\n" }.joined()
    }

    /// The log notes, one line each without indentation, as ``text`` lists them under `log notes: N`:
    /// `unclean-stop before seq 42: …`, `repaired-torn-tail at seq 42: …`, `dead-service: …`.
    public var logNoteLines: [String] {
        var lines = uncleanStops.map { "unclean-stop before seq \($0): no stop record (the service crashed or was killed)" }
        for tail in repairedTornTails {
            lines.append("repaired-torn-tail at seq \(tail.seq): \(tail.bytes) bytes of an incomplete or unparsable last line "
                + "were cut from the log at that start (a write cut short by a crash, or an edit of the log's end)")
        }
        if let deadServicePid {
            lines.append("dead-service: serve.json names pid \(deadServicePid), which is not running (the service was killed); "
                + "its sealed files stay until the next start shreds them")
        }
        return lines
    }

    /// The inventory notes, one line each without indentation, as ``text`` lists them under
    /// `inventory notes: N`: `temporary-file <path>`, `<code> <path>: <detail>`.
    public var inventoryNoteLines: [String] {
        inventory.temporaryFiles.map { "temporary-file \($0)" }
            + inventory.defects.map { "\($0.code) \($0.path): \($0.detail)" }
            + report.shreddedRemnants.map(\.line)
    }

    /// Seqs of `start` records whose previous record is not `stop`.
    public static func uncleanStops(_ records: [AuditRecord]) -> [Int] {
        var found = LogNotes()
        for record in records { found.add(record) }
        return found.uncleanStops
    }

    private enum CodingKeys: String, CodingKey {
        case clean, chain, recordCount, tiers, violations, inventory, uncleanStops, repairedTornTails, deadServicePid
        case policiesMismatch, shreddedRemnants
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
        try container.encode(repairedTornTails, forKey: .repairedTornTails)
        try container.encode(deadServicePid, forKey: .deadServicePid)
        try container.encodeIfPresent(policiesMismatch, forKey: .policiesMismatch)
        // Only when there are any (docs/audit-report.md): sealed files whose data key a purge destroyed.
        if !report.shreddedRemnants.isEmpty { try container.encode(report.shreddedRemnants, forKey: .shreddedRemnants) }
    }
}
