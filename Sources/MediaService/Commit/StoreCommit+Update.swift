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
}
