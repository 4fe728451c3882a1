import MediaAudit
import MediaPolicy
import MediaStorage

/// What ``MediaService/reload(policies:digest:)`` did.
public struct PolicyReloadReport: Sendable, Hashable {
    /// Hex SHA-256 of the set now in force.
    public var digest: String
    /// Hex SHA-256 of the set it replaced.
    public var previousDigest: String
    /// Tiers whose runtime (stores, counters) was kept as it was: the tier is unchanged.
    public var keptTiers: [String]
    /// Changed tiers that kept their stores (only limits such as `maxTTL` changed).
    public var updatedTiers: [String]
    /// Changed tiers that start on new, empty stores (storage class, budget or key scope changed).
    public var replacedTiers: [String]
    /// New tiers.
    public var addedTiers: [String]
    /// Tiers no longer defined.
    public var removedTiers: [String]
    /// Stored responses removed because the new set forbids them (each audited `purge`).
    public var removedObjects: Int
}

extension MediaService {
    /// Puts `policies` in force without a restart (SIGHUP, `mediactl reload`; docs/operations.md, "Reload").
    ///
    /// Requests admitted from now on use the new routes and tiers; requests in flight finish under the
    /// snapshot they were admitted with, but store nothing (their exchange began under the old policy, like
    /// during a purge). Per tier:
    /// - unchanged: its runtime is kept (stores, indexes, counters);
    /// - changed, stores still valid (``TierRuntime/canShareStores(_:_:)``): a new runtime on the same stores;
    ///   stored responses whose freshness lifetime exceeds the new cap (`maxTTL`, or `unversionedMaxTTL` for a URL
    ///   without the version parameter), or whose body exceeds the new
    ///   `maxObjectBytes`, are removed (reasons `policy-max-ttl-shortened`, `policy-over-size-limit`);
    /// - changed otherwise (storage class, `memoryBytes`, `diskBytes`, `metadata`, `cache`, `partition`,
    ///   `credentials`, `contentTypes` or `setCookie`): every stored response is removed (reason
    ///   `policy-tier-changed`), sealed files are shredded, and the tier starts on new stores;
    /// - removed: every stored response is removed (reason `policy-tier-removed`).
    ///
    /// Stored responses of a route that no longer exists, or now maps to another tier, are removed too
    /// (reason `policy-route-removed`). Every removal is audited as a `purge` batch per tier and reason
    /// (docs/audit-format.md), after the `policy` batch of the new set (reason `policy-reloaded`).
    /// Counts `mediactl_policy_reloads_total{result="ok"}`, or `{result="failed"}` when it throws.
    /// - Parameters:
    ///   - policies: a validated set (``MediaPolicy/PolicyLoader``).
    ///   - digest: its hex SHA-256 (``PolicyDigest``).
    /// - Throws: ``ServiceError`` `stopping` after ``stop()``, `invalid-policy` when the router refuses a route or a
    ///   secret file is refused (``PolicySecrets/load(for:)``),
    ///   `state-directory` when a new store cannot be opened (the set in force stays), `audit` while the audit log
    ///   cannot be written (``auditOutage``; the set in force stays), or when the records cannot be written (the
    ///   new set is then in force).
    @discardableResult
    public func reload(policies: PolicySet, digest: String) throws -> PolicyReloadReport {
        do {
            let report = try reloading.withLock { _ in try swapPolicies(policies, digest: digest) }
            reloadCounts.count(ok: true)
            return report
        } catch {
            // A set refused for what it is (a route, a secret file, a store) fails readiness; a transient refusal does not.
            let transient = (error as? ServiceError).map { $0.code == .audit || $0.code == .stopping } ?? false
            reloadCounts.count(ok: false, reason: transient ? nil : "\(error)")
            throw error
        }
    }

    /// Counts a reload refused before it reached the service (an invalid policy set):
    /// `mediactl_policy_reloads_total{result="failed"}`; `reason` (e.g. `2 problem(s) in /etc/mediactl/policies`) is
    /// what `/_mediactl/ready` says until a reload succeeds.
    public func countFailedReload(reason: String = "the policy files are invalid") {
        reloadCounts.count(ok: false, reason: reason)
    }

    private func swapPolicies(_ policies: PolicySet, digest: String) throws -> PolicyReloadReport {
        guard !isStopped.load(ordering: .acquiring) else { throw ServiceError(.stopping, "the service is stopping") }
        // No set goes in force without its `policy` record: the stores after the gap must be judged by it.
        if let outage = auditOutage {
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
        let secrets = try Self.secrets(for: policies)
        if policies.tiers.values.contains(where: { $0.signedURLs != nil }) { _ = try subjects() }
        let old = hitRoutes.snapshot
        var report = PolicyReloadReport(digest: digest, previousDigest: old.digest, keptTiers: [], updatedTiers: [],
                                        replacedTiers: [], addedTiers: [], removedTiers: [], removedObjects: 0)
        // New tiers get their stores before anything changes (their folders are not in use).
        var runtimes: [String: TierRuntime] = [:]
        var replaced: [String] = []
        for name in policies.tiers.keys.sorted() {
            let tier = policies.tiers[name]!
            guard let current = old.runtimes[name] else {
                runtimes[name] = try openRuntime(name: name, tier: tier, counters: TierCounters())
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
        let batches = try gate.exclusive { () throws -> [(tier: String, reason: ReasonCode, removed: [EntryMetadata])] in
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
                    runtimes[name] = try openRuntime(name: name, tier: policies.tiers[name]!, counters: current.counters)
                } catch {
                    // The old set stays in force (these stores empty, but working); what was removed is recorded.
                    for batch in batches {
                        try? auditor.purge(batch.removed, reason: batch.reason, tier: batch.tier, route: nil, partition: nil)
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
            hitRoutes.replace(with: PolicySnapshot(policies: policies, digest: digest, router: router, runtimes: runtimes,
                                                   secrets: secrets))
            purgeEpoch.bump()
            do {
                try auditor.policy(digest: digest, tiers: policies.tiers, reason: "policy-reloaded")
                for batch in batches {
                    try auditor.purge(batch.removed, reason: batch.reason, tier: batch.tier, route: nil, partition: nil)
                }
            } catch {
                throw ServiceError(.audit, "the reload's policy and purge records could not be written: \(error); the new policies are in force")
            }
            return batches
        }
        auditor.flush()
        report.removedObjects = batches.reduce(0) { $0 + $1.removed.count }
        return report
    }

    /// ``makeRuntime(name:tier:counters:configuration:integrityKey:auditor:barrier:)`` with this service's configuration.
    private func openRuntime(name: String, tier: Tier, counters: TierCounters) throws -> TierRuntime {
        do {
            return try Self.makeRuntime(name: name, tier: tier, counters: counters, configuration: configuration,
                                        integrityKey: integrityKey, auditor: auditor, barrier: durabilityBarrier)
        } catch {
            throw ServiceError(.stateDirectory, "cannot open the stores of tier \(name): \(error); the policies in force stay")
        }
    }
}
