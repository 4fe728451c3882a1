import MediaAudit
import MediaCore
import MediaStorage

extension PurgeStage {
    /// `purge --tag T --soft` (docs/operations.md, "Cache tags and soft purge"): every stored response whose tags hold
    /// `tagDigest` stays stored but is stale from now on. Its policy cap becomes its current age, so the next request
    /// revalidates it with the origin (a `304` makes it fresh again without a new body), and `stale-while-revalidate`
    /// or `stale-if-error` (RFC 5861) may still serve it meanwhile. Variants carry their source's tags and are marked
    /// with it.
    ///
    /// Each one is audited `update` (reason `soft-purge`, `ttl` 0) as it is rewritten, then the summary `purge`
    /// (reason `purge-tag-soft`) with the count and the tag's digest. Like a purge it bumps the purge epoch first, so
    /// an exchange that began before it does not store over what it marked.
    /// - Returns: the number of stored responses marked stale.
    /// - Throws: ``ServiceError`` `audit` when the summary cannot be recorded.
    func softPurge(tagDigest: CacheTagDigest) throws -> Int {
        let time = Int64(clock())
        let marked = try commit.gate.exclusive { () throws -> Int in
            commit.purgeEpoch.bump()
            var marked = 0
            let runtimes = routes.snapshot.runtimes
            for name in runtimes.keys.sorted() {
                let runtime = runtimes[name]!
                var keys = Set<String>()
                for store in runtime.decidedStores {
                    for metadata in store.inventory() where metadata.tags.contains(tagDigest) { keys.insert(metadata.key) }
                }
                for key in keys.sorted() where markStale(key, in: runtime, now: time) { marked += 1 }
            }
            do {
                try auditor.softPurgeSummary(count: marked, tag: tagDigest.hex)
            } catch {
                throw ServiceError(.audit, "the soft purge of \(marked) entries could not be recorded: \(error)")
            }
            return marked
        }
        auditor.flush()
        return marked
    }

    /// Rewrites the entry of `key` with its policy cap lowered to its current age at `now`, audited `update`
    /// `soft-purge`; `false` when it is gone, unreadable or cannot be written (then it was removed, audited `evict`).
    private func markStale(_ key: String, in runtime: TierRuntime, now time: Int64) -> Bool {
        guard let entry = runtime.entry(for: key), let decoded = HitEntry.of(entry)?.head else { return false }
        var head = decoded.head
        head.policyTTL = min(head.policyTTL, decoded.response.currentAge(now: time))
        var updated = entry
        updated.metadata.head = head.encoded()
        updated.metadata.lifetime = Double(head.policyTTL)
        let storage = StorageClass(rawValue: head.storage) ?? .memory
        guard let store = runtime.store(for: storage) else { return false }
        let metadata = updated.metadata
        let subject = ServiceAuditor.Subject(tier: metadata.tier, route: metadata.route, storeKey: key,
                                             partition: metadata.partition, url: nil)
        let bodyDigest = commit.bodyDigest(of: updated, storage: storage)
        var recorded = false
        do {
            try runtime.store(updated, in: store, for: key) {
                try auditor.record(.update, subject, storage: storage, reason: ReasonCode.softPurge.rawValue,
                                   bytes: updated.body.count, ttl: 0, bodyDigest: bodyDigest)
                recorded = true
            }
            return true
        } catch {
            if runtime.remove(key) != nil || recorded {
                try? auditor.record(.evict, subject, storage: storage, reason: "store-failed", bytes: updated.body.count, ttl: nil)
            }
            return false
        }
    }
}
