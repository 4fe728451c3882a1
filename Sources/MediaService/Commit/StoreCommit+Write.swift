import MediaAudit
import MediaCore
import MediaPolicy
import MediaStorage

extension StoreCommit {
    /// Step 8: stores a decided entry and writes its `store` record, under the ``StoreGate`` (shared) and,
    /// for file stores, the store's lock (the record is written as the entry becomes visible, so the
    /// store's own events for the key are never recorded out of order).
    ///
    /// - A purge that began since admission is seen here at the latest: nothing is stored, audited
    ///   `skip` `purged-during-fetch`. A purge that begins later waits for this section, then removes the entry.
    /// - A store that refuses the entry before its record (larger than its per-entry cap, stopped, a temp
    ///   file that cannot be written) gives `skip` `store-failed`; one that fails after it, `evict` `store-failed`.
    /// - While the audit log cannot be written (``ServiceAuditor/writerFailed``, docs/operations.md "When the audit
    ///   log cannot be written") nothing is stored: `audit-unavailable` (its `skip` is refused by the log and counted
    ///   in the gap record). A `store` record the log refuses gives the same, with no `skip` after it.
    /// - Returns: `nil` when stored, else the reason it was not (for `Cache-Status: detail`).
    /// - Parameter derivation: a variant's source and parameters, for its `store` record (`derivedFrom`, `transform`).
    ///   - negative: a negative entry's status, for its `store` record (`status`).
    ///   - source: a variant's source group and its change counter when the source was captured: a source that
    ///     changed since (a new response stored, invalidated) gives `skip` `source-changed-during-derivation`.
    func commit(_ entry: StoredEntry, into store: any MediaStoring, storeKey: String, subject: ServiceAuditor.Subject,
                decision: StorageDecision, context: RequestContext, derivation: ServiceAuditor.Derivation? = nil,
                source: (group: String, generation: Int)? = nil, negative: HTTPStatus? = nil) -> String? {
        let counters = context.runtime.counters
        let bytes = entry.body.count
        // Computed once, outside the gate and the store's lock; the disk store tags the file with the same value.
        let bodyDigest = bodyDigest(of: entry, storage: decision.storage)
        return gate.shared { () -> String? in
            guard !wasPurgedDuringExchange(context) else {
                try? auditor.record(.skip, subject, storage: .none, reason: "purged-during-fetch", bytes: bytes, ttl: nil)
                counters.bump(.skipped)
                return "purged-during-fetch"
            }
            if let source, context.runtime.derivedIndex.generation(of: source.group) != source.generation {
                try? auditor.record(.skip, subject, storage: .none, reason: "source-changed-during-derivation",
                                    bytes: bytes, ttl: nil)
                counters.bump(.skipped)
                return "source-changed-during-derivation"
            }
            guard !auditor.writerFailed else {
                try? auditor.record(.skip, subject, storage: .none, reason: ReasonCode.auditUnavailable.rawValue,
                                    bytes: bytes, ttl: nil)
                counters.bump(.skipped)
                return ReasonCode.auditUnavailable.rawValue
            }
            var recorded = false
            do {
                // One stored response per store key: drop copies another class may hold.
                for other in context.runtime.decidedStores where other !== store { other.remove(storeKey) }
                try context.runtime.store(entry, in: store, for: storeKey) {
                    try auditor.record(.store, subject, storage: decision.storage, reason: decision.reason.rawValue,
                                       bytes: bytes, ttl: decision.ttl, derivation: derivation, bodyDigest: bodyDigest,
                                       status: negative, keyId: keyID(storage: decision.storage, entry: entry, context: context))
                    recorded = true
                }
            } catch let error as AuditError where !recorded && (error.code == .io || error.code == .unavailable) {
                // The log could not write the `store` record (nothing stored): a `skip` would be refused too.
                counters.bump(.skipped)
                return ReasonCode.auditUnavailable.rawValue
            } catch {
                try? auditor.record(recorded ? .evict : .skip, subject, storage: recorded ? decision.storage : .none,
                                    reason: "store-failed", bytes: recorded ? nil : bytes, ttl: nil)
                counters.bump(.skipped)
                return "store-failed"
            }
            context.runtime.indexStoredResponse(storeKey)
            counters.bump(.stored)
            return nil
        }
    }

    /// A 304's update of one stored response (RFC 9111 §4.3.4), audited `update`, under the gate and the
    /// store's lock like ``commit(_:into:storeKey:subject:decision:context:)``. A purge that began since
    /// admission removes (or removed) the entry: nothing is updated. A failed update drops the entry.
    /// - Returns: whether the entry is stored updated (`false`: purged meanwhile, or the update failed and the
    ///   entry was removed, audited `evict` `store-failed` when its `update` record was written).
    @discardableResult
    func commitUpdate(_ entry: StoredEntry, storeKey: String, storage: StorageClass, ttl: Int, context: RequestContext) -> Bool {
        guard let store = context.runtime.store(for: storage) else { return false }
        let bodyDigest = bodyDigest(of: entry, storage: storage)
        return gate.shared { () -> Bool in
            guard !wasPurgedDuringExchange(context) else { return false }
            var recorded = false
            do {
                try context.runtime.store(entry, in: store, for: storeKey) {
                    try auditor.record(.update, context.subject(storeKey: storeKey), storage: storage,
                                       reason: "not-modified", bytes: entry.body.count, ttl: ttl, bodyDigest: bodyDigest,
                                       keyId: keyID(storage: storage, entry: entry, context: context))
                    recorded = true
                }
                return true
            } catch {
                if context.runtime.remove(storeKey) != nil || recorded {
                    try? auditor.record(.evict, context.subject(storeKey: storeKey), storage: storage,
                                        reason: "store-failed", bytes: entry.body.count, ttl: nil)
                }
                return false
            }
        }
    }

    /// The `keyId` of a `store`/`update` in `encrypted-disk`: the data key that seals the partition's objects now
    /// (``MediaStorage/EncryptedDiskStore/keyID(partition:)``); `nil` for other classes.
    func keyID(storage: StorageClass, entry: StoredEntry, context: RequestContext) -> String? {
        storage == .encryptedDisk ? context.runtime.sealed?.keyID(partition: entry.metadata.partition) : nil
    }

    /// The `bodyDigest` of a `store`/`update` in `storage`: the body's keyed digest under the install's integrity key
    /// for a body kept in a file (`disk`, `encrypted-disk`), kept with `entry` (so a disk store writing it tags the file
    /// with the same value, and a body read from a disk file has it already); `nil` for `memory` and `none`.
    func bodyDigest(of entry: StoredEntry, storage: StorageClass) -> [UInt8]? {
        storage == .disk || storage == .encryptedDisk ? entry.bodyDigest(under: integrityKey) : nil
    }
}
