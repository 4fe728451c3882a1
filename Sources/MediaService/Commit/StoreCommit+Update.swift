import HTTPCaching
import MediaCore
import MediaPolicy
import MediaStorage

extension StoreCommit {
    /// Writes `updated` (a 304's or a HEAD's update of `candidate`, RFC 9111 §3.2) over the stored entry,
    /// audited `update`: the stored body and what was learned about it stay, the head and times are new.
    /// - Returns: the updated candidate, its time to live (seconds, under the tier's cap) and whether it was kept.
    func storeUpdate(_ candidate: Candidate, _ updated: StoredResponse, context: RequestContext, requestTime: Double,
                     responseTime: Double) -> (candidate: Candidate, ttl: Int64, kept: Bool) {
        let cap = Int64(context.tier.ttlCap(versioned: context.isVersioned))
        // The cap counts the current age (`Age` and the apparent age from `Date`, RFC 9111 §4.2.3), as freshness does.
        let age = updated.currentAge(now: Int64(responseTime))
        let ttl = max(0, min(cap - age, updated.remainingFreshness(now: Int64(responseTime), role: context.role,
                                                                                 configuration: context.tier.freshness)))
        // At most the cap: an update that arrives older than the cap is stale (ttl 0), not a longer lifetime.
        let policyTTL = min(ttl + age, cap)
        var head = StoredHead(updated, contentType: candidate.head.contentType, width: candidate.head.width,
                              height: candidate.head.height, storage: candidate.head.storage, policyTTL: policyTTL)
        head.storage = candidate.head.storage
        head.keepDerivation(of: candidate.head)
        var entry = candidate.entry
        entry.metadata.head = head.encoded()
        entry.metadata.requestTime = requestTime
        entry.metadata.responseTime = responseTime
        entry.metadata.expiresAt = Self.expiresAt(responseTime: responseTime, ttl: ttl, tier: context.tier)
        entry.metadata.lifetime = Double(policyTTL)
        let storage = StorageClass(rawValue: candidate.head.storage) ?? .memory
        let kept = commitUpdate(entry, storeKey: candidate.storeKey, storage: storage, ttl: Int(ttl), context: context)
        return (Candidate(storeKey: candidate.storeKey, response: updated, head: head, entry: entry, policyTTL: policyTTL),
                ttl, kept)
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
}
