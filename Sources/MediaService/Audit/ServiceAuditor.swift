import MediaAudit
import MediaCore
import MediaPolicy
import MediaStorage

/// Writes the service's audit records (docs/audit-format.md): every storage change — `store`, `skip`,
/// `update`, `evict`, `expire`, `purge`, `invalidate`, `shred` — plus `start` and `stop`.
///
/// Records carry the key digest, the partition digest and, for tiers that are not partitioned, the
/// URL without its query; never a credential, cookie or body byte (``MediaAudit/AuditEntry`` cannot
/// hold them). A failed append is reported to the caller, which then does not persist.
///
/// Every record goes through a ``MediaAudit/RecoveringAuditLog``: once an append fails, the log is failing
/// (every later append refused at once, counted) until a retry writes its `gap` record
/// (docs/audit-format.md, "Gaps"; docs/operations.md, "When the audit log cannot be written").
final class ServiceAuditor: Sendable {
    let log: any AuditRecording
    /// The log's recovering front: its outage, if any, and its retries.
    let writer: RecoveringAuditLog

    /// - Parameters:
    ///   - log: the log (the service's ``MediaAudit/AuditLog``, or a recorder tests inject).
    ///   - retry: the retry backoff.
    ///   - clock: "now" in milliseconds since the epoch.
    ///   - scheduler: runs the retries (``MediaAudit/AuditRetryTimer`` when `nil`).
    ///   - onEvent: told of each change of the writer's state.
    init(log: any AuditRecording, retry: AuditWriterStateMachine.Configuration = .init(),
         clock: @escaping RecoveringAuditLog.Clock = AuditLog.systemClock, scheduler: (any AuditRetryScheduling)? = nil,
         onEvent: @escaping @Sendable (AuditWriterEvent) -> Void = { _ in }) {
        writer = RecoveringAuditLog(log, configuration: retry, clock: clock, scheduler: scheduler ?? AuditRetryTimer(),
                                    onEvent: onEvent)
        self.log = writer
    }

    /// `true` while the log cannot be written (`mediactl_audit_writer_failed`, `/_mediactl/ready` 503).
    var writerFailed: Bool { writer.outage != nil }

    /// What a record says about one stored response.
    struct Subject: Sendable {
        var tier: String
        var route: String
        var storeKey: String
        var partition: String?
        var url: String?
    }

    /// A derived image's source and parameters (the `derivedFrom` and `transform` fields of its `store`).
    struct Derivation: Sendable, Hashable {
        /// Hex SHA-256 of the source's store key.
        var source: String
        /// The normalised parameters, e.g. `w=144,fit=inside,fmt=jpeg,q=80`.
        var transform: String
    }

    /// The `start` record; `bytes` is the torn tail the log removed on open (reason `repaired-torn-tail`).
    func start(reason: String, bytes: Int? = nil) throws {
        _ = try log.append(AuditEntry(event: .start, reason: code(reason), bytes: bytes))
    }

    /// Appends a `policy` batch (docs/audit-format.md, "Policy records"): one summary record with the set's
    /// `digest` as `key`, `reason` (`policy-loaded` at start, `policy-reloaded`) and `count` = the number of
    /// tiers, then one record per tier in name order with the same `key`, `tier`, `storage` = the tier's
    /// storage class (the widest it allows), `ttl` = its `maxTTL` and reason `policy-tier`.
    /// - Throws: the log's error when the batch cannot be appended.
    func policy(digest: String, tiers: [String: Tier], reason: String) throws {
        let key = try AuditDigest(hex: digest)
        var entries = [AuditEntry(event: .policy, key: key, reason: code(reason), count: tiers.count)]
        for name in tiers.keys.sorted() {
            let tier = tiers[name]!
            entries.append(AuditEntry(event: .policy, tier: self.name(name), storage: Self.auditStorage(tier.storage), key: key,
                                      reason: code("policy-tier"), ttl: tier.maxTTL))
        }
        _ = try log.append(contentsOf: entries)
    }

    /// The summary record closing a batch of `count` shreds of `tier` (docs/audit-format.md,
    /// "Purge and shred batches"); nothing when `count` is 0.
    func shredSummary(tier: String, count: Int, reason: String) {
        guard count > 0 else { return }
        _ = try? log.append(AuditEntry(event: .shred, tier: name(tier), storage: .encryptedDisk, reason: code(reason),
                                       count: count))
    }

    /// The `stop` record, flushed. During an outage, one retry first (whatever the backoff): a log writable again
    /// gets its `gap` record, then `stop`.
    /// - Throws: ``MediaAudit/AuditError`` (`unavailable` when the log still cannot be written).
    func stop() throws {
        writer.retryNow()
        _ = try log.append(AuditEntry(event: .stop, reason: code("graceful-stop")))
        try log.flush()
    }

    /// No more retries; during an outage the writer reports that it stops without a `stop` record.
    func close() {
        writer.close()
    }

    /// Appends a decision record (`store`, `skip`, `update`, `invalidate`); a variant's `store` (and `update`)
    /// carries its `derivation` as `derivedFrom` and `transform` (docs/audit-format.md).
    /// - Parameter bodyDigest: the `store` or `update` of a body kept in a file: its keyed digest
    ///   (``MediaStorage/StoredEntry/bodyDigest(under:)``, 32 bytes), the record's `bodyDigest`.
    func record(_ event: AuditEvent, _ subject: Subject, storage: StorageClass, reason: String,
                bytes: Int?, ttl: Int?, derivation: Derivation? = nil, bodyDigest: [UInt8]? = nil,
                status: HTTPStatus? = nil, keyId: String? = nil) throws {
        _ = try log.append(AuditEntry(
            event: event, tier: name(subject.tier), route: name(subject.route), storage: Self.auditStorage(storage),
            key: CacheKey.auditDigest(subject.storeKey), scope: scope(partition: subject.partition, url: subject.url),
            reason: code(reason), bytes: bytes, ttl: ttl,
            derivedFrom: derivation.flatMap { digest($0.source) },
            transform: derivation.flatMap { try? AuditTransform($0.transform) },
            bodyDigest: bodyDigest.flatMap { try? AuditDigest(bytes: $0) }, status: status?.code,
            keyId: keyId.flatMap { try? AuditKeyID($0) }))
    }

    /// Appends the record of an entry the service removed itself (`expire`, `invalidate`, `evict`), its tier, route,
    /// partition, class and size taken from the entry's metadata; `url` only where the caller may record one.
    func recordRemoval(_ event: AuditEvent, _ metadata: EntryMetadata, storeKey: String, url: String? = nil,
                       reason: String) {
        let subject = Subject(tier: metadata.tier, route: metadata.route, storeKey: storeKey, partition: metadata.partition,
                              url: url)
        try? record(event, subject, storage: StorageClass(rawValue: metadata.storageClass.rawValue) ?? .memory,
                    reason: reason, bytes: metadata.bodyByteCount, ttl: nil)
    }

    /// Appends the record of a store's own event (eviction, expiry, corrupt file, shred).
    /// - Parameter tier: the tier owning the store, recorded when the event cannot name it (files
    ///   of an earlier process are unreadable, so their shreds carry no metadata).
    func record(_ event: StorageEvent, tier: String? = nil) {
        let auditEvent: AuditEvent
        var reason = event.reason.rawValue
        switch event.kind {
        case .evict: auditEvent = .evict
        case .expire: auditEvent = .expire
        case .corrupt:
            auditEvent = .evict
            reason = "corrupt:" + reason
        case .shred:
            auditEvent = .shred
            if event.reason == .previousProcess { reason = ReasonCode.unreadableAfterRestart.rawValue }
            if event.reason == .stop { reason = "service-stop" }
        }
        _ = try? log.append(AuditEntry(
            event: auditEvent, tier: (event.tier ?? tier).flatMap(name), route: event.route.flatMap(name),
            storage: AuditStorage(rawValue: event.storageClass.rawValue), key: digest(event.keyDigest),
            scope: scope(partition: event.partition, url: nil), reason: code(reason), bytes: event.bytes))
    }

    /// Appends one `shred` record per data key about to be destroyed (reason `partition-key-destroyed`, `keyId`, the
    /// partition, `encrypted-disk`), in one batch, and makes it durable.
    /// - Throws: the log's error when the batch cannot be appended or synced.
    func keysDestroyed(_ keys: [(tier: String, ids: [String])], partition: String) throws {
        let entries = keys.flatMap { tier, ids in
            ids.map { id in
                AuditEntry(event: .shred, tier: name(tier), storage: .encryptedDisk, scope: scope(partition: partition, url: nil),
                           reason: .partitionKeyDestroyed, keyId: try? AuditKeyID(id))
            }
        }
        _ = try log.append(contentsOf: entries)
        try log.flush()
    }

    /// Appends a purge batch: one record per removed entry, then a summary with the count.
    /// - Parameter tag: a purge by cache tag: the tag's keyed digest, recorded on the summary.
    /// - Returns: the batch's summary record.
    @discardableResult
    func purge(_ removed: [EntryMetadata], reason: ReasonCode, tier: String?, route: String?, partition: String?,
               tag: String? = nil) throws -> AuditRecord? {
        let entries = removed.map { metadata in
            AuditEntry(event: .purge, tier: name(metadata.tier), route: name(metadata.route),
                       storage: AuditStorage(rawValue: metadata.storageClass.rawValue),
                       key: CacheKey.auditDigest(metadata.key), scope: scope(partition: metadata.partition, url: nil),
                       bytes: metadata.bodyByteCount)
        }
        var batch = AuditEntry.removalBatch(
            event: .purge, reason: reason, tier: tier.flatMap(name), route: route.flatMap(name),
            scope: scope(partition: partition, url: nil), removed: entries)
        if let tag { batch[batch.count - 1].tag = try? AuditDigest(hex: tag) }
        return try log.append(contentsOf: batch).last
    }

    /// Appends the summary of a soft purge (`purge-tag-soft`, no key): how many stored responses it marked stale (each
    /// audited `update` `soft-purge` as it was rewritten) and the tag's keyed digest.
    func softPurgeSummary(count: Int, tag: String) throws {
        _ = try log.append(AuditEntry(event: .purge, reason: .purgeTagSoft, count: count, tag: try? AuditDigest(hex: tag)))
    }

    /// Appends the `evict` of a disk entry left by an earlier process in the folder of `tier`, which the
    /// current policies no longer keep on disk (reason `tier-storage-changed`; ``UnownedTierFolders``).
    func evictUnowned(_ metadata: EntryMetadata, tier: String, reason: String = "tier-storage-changed") {
        _ = try? log.append(AuditEntry(
            event: .evict, tier: name(tier), route: name(metadata.route), storage: .disk,
            key: CacheKey.auditDigest(metadata.key), scope: scope(partition: metadata.partition, url: nil),
            reason: code(reason), bytes: metadata.bodyByteCount))
    }

    func flush() { try? log.flush() }

    /// The audit record's storage class for `storage` (same names; a switch, not a raw-value lookup).
    static func auditStorage(_ storage: StorageClass) -> AuditStorage {
        switch storage {
        case .none: .none
        case .memory: .memory
        case .encryptedDisk: .encryptedDisk
        case .disk: .disk
        }
    }

    private func name(_ text: String) -> AuditName? { try? AuditName(text) }
    private func digest(_ hex: String) -> AuditDigest? { try? AuditDigest(hex: hex) }
    private func code(_ text: String) -> ReasonCode? { try? ReasonCode(text) }

    private func scope(partition: String?, url: String?) -> AuditScope {
        if let partition, let digest = digest(partition) { return .partitioned(digest) }
        return .shared(url: url.flatMap { try? AuditURL($0) })
    }
}
