import MediaAudit
import MediaPolicy
import MediaStorage

/// The reload stage (docs/operations.md, "Reload"): puts a validated policy set in force in place of the snapshot of
/// ``routes``: new tiers get their stores first, unchanged tiers keep their runtime, changed ones share or replace
/// their stores, and what the new set forbids is removed; the swap, the purge epoch's bump and the `policy` and `purge`
/// records happen under the gate, so no store lands between them.
///
/// A value over the commit stage (gate, auditor, purge epoch), the policy snapshot it replaces, and three service
/// operations: whether the service is stopping, opening a tier's runtime, and opening the subject keys.
struct PolicySwap {
    let commit: StoreCommit
    let routes: HitRouteCache
    let isStopped: () -> Bool
    /// A tier's runtime (stores, indexes) on its state-directory folders, with `counters`.
    let openRuntime: (_ name: String, _ tier: Tier, _ counters: TierCounters) throws -> TierRuntime
    /// Opens (makes on first use) the subject partitions' keys, for a set with `signedURLs`.
    let openSubjects: () throws -> Void

    /// Validates `policies` against the service's state, swaps them in, and removes what they forbid (see
    /// ``MediaService/reload(policies:digest:)``).
    /// - Throws: as ``MediaService/reload(policies:digest:)``.
    func swap(_ policies: PolicySet, digest: String) throws -> PolicyReloadReport {
        guard !isStopped() else { throw ServiceError(.stopping, "the service is stopping") }
        // No set goes in force without its `policy` record: the stores after the gap must be judged by it.
        if let outage = commit.auditor.writer.outage {
            throw ServiceError(.audit, "the audit log cannot be written since \(outage.since) (\(outage.shortCause)); "
                + "the policies in force stay until it can")
        }
        let router: Router
        do {
            router = try PolicySnapshot.router(for: policies)
        } catch {
            throw ServiceError(.invalidPolicy, error.context)
        }
        // Keys files and origin tokens are read again: a key removed from its file stops verifying now.
        let secrets = try PolicySnapshot.secrets(for: policies)
        try PolicySnapshot.requireImageEngine(for: policies)
        if policies.tiers.values.contains(where: { $0.signedURLs != nil }) { try openSubjects() }
        let old = routes.snapshot
        var report = PolicyReloadReport(digest: digest, previousDigest: old.digest, keptTiers: [], updatedTiers: [],
                                        replacedTiers: [], addedTiers: [], removedTiers: [], removedObjects: 0)
        // New tiers get their stores before anything changes (their folders are not in use).
        var runtimes: [String: TierRuntime] = [:]
        var replaced: [String] = []
        for name in policies.tiers.keys.sorted() {
            let tier = policies.tiers[name]!
            guard let current = old.runtimes[name] else {
                runtimes[name] = try openRuntime(name, tier, TierCounters())
                report.addedTiers.append(name)
                continue
            }
            if current.tier == tier {
                runtimes[name] = current
                report.keptTiers.append(name)
            } else if TierRuntime.canShareStores(current.tier, tier) {
                runtimes[name] = TierRuntime(tier: tier, sharing: current)
                report.updatedTiers.append(name)
            } else {
                replaced.append(name)
                report.replacedTiers.append(name)
            }
        }
        report.removedTiers = old.runtimes.keys.filter { policies.tiers[$0] == nil }.sorted()
        let routeTiers = Dictionary(policies.routes.map { ($0.name, $0.tier) }) { first, _ in first }
        let batches = try commit.gate.exclusive { () throws -> [(tier: String, reason: ReasonCode, removed: [EntryMetadata])] in
            var batches: [(tier: String, reason: ReasonCode, removed: [EntryMetadata])] = []
            func remove(_ runtime: TierRuntime, _ name: String, _ reason: String, where predicate: (EntryMetadata) -> Bool) {
                let gone = runtime.removeAll(where: predicate)
                runtime.counters.bump(.purged, by: gone.count)
                if !gone.isEmpty, let code = try? ReasonCode(reason) { batches.append((name, code, gone)) }
            }
            for name in report.removedTiers { remove(old.runtimes[name]!, name, "policy-tier-removed") { _ in true } }
            // A replaced tier's old stores are emptied before new ones open on the same folders.
            for name in replaced {
                let current = old.runtimes[name]!
                remove(current, name, "policy-tier-changed") { _ in true }
                current.disk?.flush()
                current.sealed?.flush()
                do {
                    runtimes[name] = try openRuntime(name, policies.tiers[name]!, current.counters)
                } catch {
                    // The old set stays in force (these stores empty, but working); what was removed is recorded.
                    for batch in batches {
                        try? commit.auditor.purge(batch.removed, reason: batch.reason, tier: batch.tier, route: nil, partition: nil)
                    }
                    throw error
                }
            }
            for name in report.updatedTiers {
                let runtime = runtimes[name]!, tier = runtime.tier
                // What the old tier kept an entry for past its lifetime, for revalidation (StoreCommit.expiresAt).
                let oldTier = old.runtimes[name]?.tier ?? tier
                let revalidationRetention = oldTier.partition == .credential ? 0 : Double(oldTier.maxTTL)
                // The freshness lifetime the entry was stored with (its policy TTL, in the index) against the cap that
                // now applies to its URL. An entry of a file written before lifetimes were recorded has none: its
                // lifetime is its retention less the old tier's revalidation retention (one second of slack: expiry
                // times are not whole seconds).
                remove(runtime, name, "policy-max-ttl-shortened") { entry in
                    let versioned = tier.isVersioned(query: CacheKey.query(ofStoreKey: entry.key).map(String.init))
                    let cap = Double(tier.ttlCap(versioned: versioned))
                    guard let lifetime = entry.lifetime else {
                        return entry.expiresAt - entry.responseTime - revalidationRetention > cap + 1
                    }
                    return lifetime > cap
                }
                remove(runtime, name, "policy-over-size-limit") { $0.bodyByteCount > tier.maxObjectBytes }
            }
            for name in report.keptTiers + report.updatedTiers {
                remove(runtimes[name]!, name, "policy-route-removed") { routeTiers[$0.route] != name }
            }
            // Swap, then bump the epoch: a request that reads the new epoch at admission reads the new snapshot.
            routes.replace(with: PolicySnapshot(policies: policies, digest: digest, router: router, runtimes: runtimes,
                                                   secrets: secrets))
            commit.purgeEpoch.bump()
            do {
                try commit.auditor.policy(digest: digest, tiers: policies.tiers, reason: "policy-reloaded")
                for batch in batches {
                    try commit.auditor.purge(batch.removed, reason: batch.reason, tier: batch.tier, route: nil, partition: nil)
                }
            } catch {
                throw ServiceError(.audit, "the reload's policy and purge records could not be written: \(error); the new policies are in force")
            }
            return batches
        }
        commit.auditor.flush()
        report.removedObjects = batches.reduce(0) { $0 + $1.removed.count }
        return report
    }
}
