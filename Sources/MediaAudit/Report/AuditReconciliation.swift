/// The running state of a reconciliation: feed the log's records in order with ``add(_:)``, then build
/// the report with ``report(verification:inventory:)``.
///
/// Memory: per-tier counters, the violations found, the last `store`, last change and last `store`/`update`
/// (a variant's or not, and the `bytes` and `bodyDigest` of the body it wrote), of each key in `objectKeys` (the
/// objects found on disk, whose records the report judges), and, for the variant checks, a few words per key live at the current point of the
/// log (``VariantSources``: keys whose last record is a `store`/`update`, memory ones only until the next
/// `start`/`stop`). Records of other keys are counted and dropped. So a log of any length is reconciled in
/// memory proportional to the inventory plus the objects the cache held at once.
public struct AuditReconciliation: Sendable {
    private let objectKeys: Set<String>
    private let allowedStorage: [String: AuditStorage]
    private var rows: [String: [AuditStorage: AuditReport.Row]] = [:]
    private var storeViolations: [AuditViolation] = []
    private var lastStore: [String: Mark] = [:]
    private var lastChange: [String: Mark] = [:]
    private var seededStore: [String: Mark] = [:]
    private var seededChange: [String: Mark] = [:]
    /// Object key → its last `store`/`update` (added, then seeded records): whether it is a variant's, and the
    /// body it wrote.
    private var lastWrite: [String: Write] = [:]
    private var seededWrite: [String: Write] = [:]
    private var sources = VariantSources()
    private var variantViolations: [AuditViolation] = []
    /// The policy in force at the current point of the log, and every policy batch seen (``AuditReport/policies``).
    private var policies = PoliciesInForce()
    /// Data keys the log says were destroyed (`shred` `partition-key-destroyed`): key id → `seq`.
    private var destroyedKeys: [String: Int] = [:]
    /// `false`: `store` records are not judged by the policies (a prune without policies judges only
    /// variants), so no violation list grows with them.
    var judgesStoresByPolicy = true

    /// What the report needs of a key's last store or change: a few words instead of the whole record
    /// (an audit of hundreds of thousands of objects keeps two of these per object).
    struct Mark: Sendable {
        let seq: Int
        let event: AuditEvent
        let storage: AuditStorage?
        let tier: String?

        init(_ record: AuditRecord) {
            seq = record.seq
            event = record.event
            storage = record.storage
            tier = record.tier?.rawValue
        }
    }
    /// What the report needs of a key's last `store` or `update`: the record that wrote its file.
    struct Write: Sendable {
        let seq: Int
        let event: AuditEvent
        let isVariant: Bool
        let bytes: Int?
        let bodyDigest: AuditDigest?

        init(_ record: AuditRecord) {
            seq = record.seq
            event = record.event
            isVariant = record.isVariant
            bytes = record.bytes
            bodyDigest = record.bodyDigest
        }
    }

    /// Records added.
    public private(set) var recordCount = 0

    /// - Parameters:
    ///   - objectKeys: the hex keys of the objects the report will be built for (file names in `disk/`
    ///     and `sealed/`).
    ///   - allowedStorage: tier name → widest storage its policy allows (`none` for a no-store tier).
    public init(objectKeys: Set<String>, allowedStorage: [String: AuditStorage]) {
        self.objectKeys = objectKeys
        self.allowedStorage = allowedStorage
        for tier in allowedStorage.keys { rows[tier] = [:] }
    }

    /// Takes one record of the ``AuditCheckpoint`` the log continues from (in the objects file's order):
    /// a change before every added record, not counted; a `store` of an object still on disk is checked
    /// against its tier's policy like an added one. Every seeded record can be a later variant's source;
    /// a seeded variant's own record is not judged against its source again (the prune that removed its
    /// segment refused to remove a variant violation).
    public mutating func seed(_ record: AuditRecord) {
        sources.note(record)
        guard let key = record.key?.hex, objectKeys.contains(key) else { return }
        if record.event == .store || record.event == .update { seededWrite[key] = Write(record) }
        if record.event == .store, let tier = record.tier?.rawValue {
            storeViolations += Self.storeViolations(
                record, tier: tier, storage: record.storage ?? AuditStorage.none, allowedStorage: allowedStorage)
        }
        // An update carried alone stands for the store that wrote its file (a 304 after an eviction).
        if record.event == .store || (record.event == .update && seededStore[key] == nil) { seededStore[key] = Mark(record) }
        seededChange[key] = Mark(record)
    }

    /// Counts one record (the next in chain order) and checks a `store` against its tier's policy and, for
    /// a variant's `store`, against its source's last `store`/`update` before it.
    public mutating func add(_ record: AuditRecord) {
        recordCount += 1
        // Policy batches name the set in force from here on; they concern no object and no tier row.
        if record.event == .policy { return policies.note(record) }
        if record.event == .store, let derivedFrom = record.derivedFrom {
            variantViolations += Self.variantViolations(record, derivedFrom: derivedFrom, source: sources.source(of: derivedFrom))
        }
        sources.note(record)
        if let key = record.key?.hex, objectKeys.contains(key) {
            if record.event == .store || record.event == .update { lastWrite[key] = Write(record) }
            // An update with no earlier store (its store was pruned, or a 304 wrote the entry again after an
            // eviction) is the record of the file it wrote.
            if record.event == .store || (record.event == .update && lastStore[key] == nil) { lastStore[key] = Mark(record) }
            if record.event == .store || record.event == .update || record.event.removesObject {
                lastChange[key] = Mark(record)
            }
        }
        if record.event == .shred, record.reason == .partitionKeyDestroyed, let keyId = record.entry.keyId {
            destroyedKeys[keyId.rawValue] = record.seq
        }
        // Batch summaries (purge/shred with a null key) are not counted: their per-key records are.
        if record.event == .purge || record.event == .shred, record.key == nil { return }
        guard let tier = record.tier?.rawValue else { return }
        let storage = record.storage ?? AuditStorage.none
        var row = rows[tier, default: [:]][storage] ?? AuditReport.Row(storage: storage)
        Self.count(record, into: &row)
        if record.event == .store && record.isVariant { row.variantsStored += 1 }
        rows[tier, default: [:]][storage] = row
        if record.event == .store {
            policies.countStore()
            guard judgesStoresByPolicy else { return }
            // Judged by the policy in force when it was written when the log names one, else by the policies given.
            if let inForce = policies.current {
                storeViolations += inForce.violations(record, tier: tier, storage: storage)
            } else {
                storeViolations += Self.storeViolations(record, tier: tier, storage: storage, allowedStorage: allowedStorage)
            }
        }
    }

    /// Reads the audit folder `directory` into this reconciliation in one streamed pass
    /// (``AuditVerifier/stream(directory:stopWhenSettled:checkpointObjects:_:)``): the checkpoint's object
    /// records ``seed(_:)``ed, then every record ``add(_:)``ed and handed to `observe`.
    /// - Returns: the chain's verification.
    /// - Throws: ``AuditError/Code/io`` when a file cannot be read.
    public mutating func read(directory: String, observe: (AuditRecord) -> Void = { _ in }) throws -> AuditVerification {
        var reading = self  // the checkpoint closure is escaping (optional), so it cannot capture `self`
        defer { self = reading }
        return try AuditVerifier.stream(directory: directory, checkpointObjects: { reading.seed($0) }) { record in
            reading.add(record)
            observe(record)
        }.verification
    }

    /// The store violations found so far (records the policies forbid), in the order found.
    public var storeViolationsFound: [AuditViolation] { storeViolations }

    /// The variant violations found so far (variants' `store` records that do not match their source), in
    /// the order found. They need no policy.
    public var variantViolationsFound: [AuditViolation] { variantViolations }

    /// The report: the chain failure (if any) first, then the store violations in log order, then the
    /// object violations by folder and key.
    /// - Parameters:
    ///   - verification: the chain check of the same records.
    ///   - inventory: every file found in `disk/` and `sealed/` (keys outside `objectKeys` are judged
    ///     as having no record).
    public func report(verification: AuditVerification, inventory: [PersistedObject]) -> AuditReport {
        // The checkpoint's records (all before the added ones) fill in keys the log kept no record of since.
        let lastStore = self.lastStore.merging(seededStore) { added, _ in added }
        let lastChange = self.lastChange.merging(seededChange) { added, _ in added }
        let lastWrite = self.lastWrite.merging(seededWrite) { added, _ in added }
        var rows = self.rows
        var violations: [AuditViolation] = []
        if let failure = verification.failure {
            violations.append(AuditViolation(
                kind: .brokenChain, seq: failure.seq,
                evidence: "\(failure.kind) at seq \(failure.seq) (\(failure.file) line \(failure.line)): \(failure.detail)"))
        }
        violations += Self.mergedBySeq(storeViolations, variantViolations)
        var remnants: [ShreddedRemnant] = []
        for object in inventory.sorted(by: { ($0.folder.rawValue, $0.key) < ($1.folder.rawValue, $1.key) }) {
            // A sealed file whose key was destroyed: nobody can open it, a note rather than a violation.
            if object.folder == .sealed, object.isSealed, let id = object.sealedKeyID, let seq = destroyedKeys[id] {
                remnants.append(ShreddedRemnant(path: object.path ?? "sealed/\(object.key)", keyId: id, seq: seq))
                continue
            }
            let store = lastStore[object.key]
            let tier = object.tier ?? store?.tier
            let storage = object.folder.storage
            var row = rows[tier ?? "unknown", default: [:]][storage] ?? AuditReport.Row(storage: storage)
            row.objects += 1
            row.bytes += object.bytes
            if lastWrite[object.key]?.isVariant == true { row.variantObjects += 1 }
            rows[tier ?? "unknown", default: [:]][storage] = row
            violations += Self.objectViolations(
                object, tier: tier, store: store, lastChange: lastChange[object.key], lastWrite: lastWrite[object.key],
                allowedStorage: allowedStorage)
        }
        let tiers = rows.keys.sorted().map { tier in
            AuditReport.Tier(
                tier: tier, allowedStorage: allowedStorage[tier],
                rows: rows[tier, default: [:]].values.sorted { $0.storage > $1.storage })
        }
        return AuditReport(chain: verification, recordCount: recordCount, tiers: tiers, violations: violations,
                           policies: policies.uses, shreddedRemnants: remnants)
    }

    /// Two violation lists, each in `seq` order, merged by `seq` (on a tie, `first`'s come first).
    private static func mergedBySeq(_ first: [AuditViolation], _ second: [AuditViolation]) -> [AuditViolation] {
        guard !second.isEmpty else { return first }
        var merged: [AuditViolation] = []
        merged.reserveCapacity(first.count + second.count)
        var (i, j) = (0, 0)
        while i < first.count || j < second.count {
            if j == second.count || (i < first.count && (first[i].seq ?? 0) <= (second[j].seq ?? 0)) {
                merged.append(first[i])
                i += 1
            } else {
                merged.append(second[j])
                j += 1
            }
        }
        return merged
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
        case .start, .stop, .policy, .gap: break
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
        _ object: PersistedObject, tier: String?, store: Mark?, lastChange: Mark?, lastWrite: Write?,
        allowedStorage: [String: AuditStorage]
    ) -> [AuditViolation] {
        var found: [AuditViolation] = []
        let path = "\(object.path ?? "\(object.folder.rawValue)/\(object.key)") (\(object.bytes) bytes)"
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
        if object.folder == .disk, let lastWrite, let evidence = bodyMismatch(object, path: path, lastWrite: lastWrite) {
            add(.bodyMismatch, seq: lastWrite.seq, evidence)
        }
        return found
    }

    /// The evidence of a `body-mismatch` of the `disk/` object at `path` against the record that wrote its file,
    /// or `nil` when its body is the one recorded, or the record names no `bodyDigest` (earlier logs).
    static func bodyMismatch(_ object: PersistedObject, path: String, lastWrite: Write) -> String? {
        guard let recordedDigest = lastWrite.bodyDigest else { return nil }
        let record = "\(lastWrite.event.rawValue) record \(lastWrite.seq)"
        let recordedBytes = lastWrite.bytes.map(String.init) ?? "?"
        let recorded = "\(record) recorded \(recordedBytes) bytes with digest \(short(recordedDigest))"
        guard let bodyBytes = object.bodyBytes else {
            return "\(path): its body cannot be checked against \(record) (\(object.bodyUnchecked ?? "no disk layout"))"
        }
        if let digest = object.bodyDigest {
            guard digest != recordedDigest || bodyBytes != lastWrite.bytes else { return nil }
            return "\(path) holds a body of \(bodyBytes) bytes with digest \(short(digest)); \(recorded)"
        }
        if bodyBytes != lastWrite.bytes { return "\(path) holds a body of \(bodyBytes) bytes; \(recorded)" }
        return "\(path): its body cannot be checked against \(record) (\(object.bodyUnchecked ?? "no body digest"))"
    }

    /// A digest's first 16 hex digits and `…`, as evidence shows partitions.
    static func short(_ digest: AuditDigest) -> String { String(digest.hex.prefix(16)) + "…" }
}
