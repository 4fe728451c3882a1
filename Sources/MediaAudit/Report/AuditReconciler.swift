/// Reconciles the audit log with what is on disk. Pure: the caller passes the records, the chain
/// verification and the inventory it scanned.
public enum AuditReconciler {
    /// Builds the report.
    ///
    /// - Parameters:
    ///   - records: the log's records in order (``AuditReader/records(directory:)``).
    ///   - verification: the chain check of the same log (``AuditVerifier/verify(directory:)``).
    ///   - inventory: every file found in `disk/` and `sealed/`.
    ///   - allowedStorage: tier name → widest storage its policy allows (`none` for a no-store tier).
    /// - Returns: counts per tier and storage class, and the violations (see ``AuditViolation/Kind``).
    /// - Complexity: O(records + objects · log objects).
    public static func report(
        records: [AuditRecord], verification: AuditVerification, inventory: [PersistedObject],
        allowedStorage: [String: AuditStorage]
    ) -> AuditReport {
        var rows: [String: [AuditStorage: AuditReport.Row]] = [:]
        var violations: [AuditViolation] = []
        var lastStore: [String: AuditRecord] = [:]
        var lastChange: [String: AuditRecord] = [:]
        for tier in allowedStorage.keys { rows[tier, default: [:]] = [:] }

        if let failure = verification.failure {
            violations.append(AuditViolation(
                kind: .brokenChain, seq: failure.seq,
                evidence: "\(failure.kind) at seq \(failure.seq) (\(failure.file) line \(failure.line)): \(failure.detail)"))
        }
        for record in records {
            if let key = record.key?.hex {
                if record.event == .store { lastStore[key] = record }
                if record.event == .store || record.event == .update || record.event.removesObject {
                    lastChange[key] = record
                }
            }
            // Batch summaries (purge/shred with a null key) are not counted: their per-key records are.
            if record.event == .purge || record.event == .shred, record.key == nil { continue }
            guard let tier = record.tier?.rawValue else { continue }
            let storage = record.storage ?? AuditStorage.none
            var row = rows[tier, default: [:]][storage] ?? AuditReport.Row(storage: storage)
            count(record, into: &row)
            rows[tier, default: [:]][storage] = row
            if record.event == .store {
                violations += storeViolations(record, tier: tier, storage: storage, allowedStorage: allowedStorage)
            }
        }
        var objectViolations: [AuditViolation] = []
        for object in inventory.sorted(by: { ($0.folder.rawValue, $0.key) < ($1.folder.rawValue, $1.key) }) {
            let store = lastStore[object.key]
            let tier = object.tier ?? store?.tier?.rawValue
            let storage = object.folder.storage
            var row = rows[tier ?? "unknown", default: [:]][storage] ?? AuditReport.Row(storage: storage)
            row.objects += 1
            row.bytes += object.bytes
            rows[tier ?? "unknown", default: [:]][storage] = row
            objectViolations += self.objectViolations(
                object, tier: tier, store: store, lastChange: lastChange[object.key], allowedStorage: allowedStorage)
        }
        violations += objectViolations
        let tiers = rows.keys.sorted().map { tier in
            AuditReport.Tier(
                tier: tier, allowedStorage: allowedStorage[tier],
                rows: rows[tier, default: [:]].values.sorted { $0.storage > $1.storage })
        }
        return AuditReport(chain: verification, recordCount: records.count, tiers: tiers, violations: violations)
    }

    /// Reads and verifies `<stateDirectory>/audit`, then builds the report for `inventory`.
    /// - Throws: ``AuditError/Code/io`` when the log cannot be read.
    public static func report(
        stateDirectory: String, inventory: [PersistedObject], allowedStorage: [String: AuditStorage]
    ) throws -> AuditReport {
        let directory = stateDirectory + "/audit"
        return report(
            records: try AuditReader.records(directory: directory),
            verification: try AuditVerifier.verify(directory: directory), inventory: inventory,
            allowedStorage: allowedStorage)
    }

    private static func count(_ record: AuditRecord, into row: inout AuditReport.Row) {
        switch record.event {
        case .store: row.stored += 1
        case .update: row.updated += 1
        case .skip: row.skipped[record.reason?.rawValue ?? "none", default: 0] += 1
        case .evict: row.evicted += 1
        case .expire: row.expired += 1
        case .purge: row.purged += 1
        case .invalidate: row.invalidated += 1
        case .shred: row.shredded += 1
        case .start, .stop: break
        }
    }

    private static func storeViolations(
        _ record: AuditRecord, tier: String, storage: AuditStorage, allowedStorage: [String: AuditStorage]
    ) -> [AuditViolation] {
        let key = record.key?.hex
        guard let allowed = allowedStorage[tier] else {
            return [AuditViolation(
                kind: .unknownTier, tier: tier, key: key, seq: record.seq,
                evidence: "store record \(record.seq) names tier \(tier), which the policies do not define")]
        }
        if allowed == .none {
            return [AuditViolation(
                kind: .storeInNoStoreTier, tier: tier, key: key, seq: record.seq,
                evidence: "store record \(record.seq) stored in \(storage.rawValue) for no-store tier \(tier)")]
        }
        if storage > allowed {
            return [AuditViolation(
                kind: .storeWiderThanTier, tier: tier, key: key, seq: record.seq,
                evidence: "store record \(record.seq) stored in \(storage.rawValue); tier \(tier) allows at most \(allowed.rawValue)")]
        }
        return []
    }

    private static func objectViolations(
        _ object: PersistedObject, tier: String?, store: AuditRecord?, lastChange: AuditRecord?,
        allowedStorage: [String: AuditStorage]
    ) -> [AuditViolation] {
        var found: [AuditViolation] = []
        let path = "\(object.folder.rawValue)/\(object.key) (\(object.bytes) bytes)"
        func add(_ kind: AuditViolation.Kind, seq: Int? = nil, _ evidence: String) {
            found.append(AuditViolation(
                kind: kind, tier: tier, key: object.key, folder: object.folder, seq: seq, evidence: evidence))
        }
        if object.folder == .sealed && !object.isSealed {
            add(.notSealed, "\(path) is not a sealed object")
        }
        if object.folder == .disk, let tier {
            if let allowed = allowedStorage[tier] {
                if allowed < .disk { add(.diskNotAllowed, "\(path) has tier \(tier), which allows at most \(allowed.rawValue)") }
            } else {
                add(.unknownTier, "\(path) has tier \(tier), which the policies do not define")
            }
        }
        guard let store else {
            add(.unrecordedObject, "\(path) has no store record")
            return found
        }
        if let lastChange, lastChange.event.removesObject {
            add(.removedObjectPresent, seq: lastChange.seq,
                "\(path) is still present after \(lastChange.event.rawValue) record \(lastChange.seq)")
        }
        if let stored = store.storage, stored != object.folder.storage {
            add(.storageMismatch, seq: store.seq,
                "\(path) is in \(object.folder.rawValue)/ but store record \(store.seq) says \(stored.rawValue)")
        }
        return found
    }
}
