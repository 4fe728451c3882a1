import MediaAudit
import MediaPolicy
import MediaStorage

// Everything but requests: purge, reload, the `/_mediactl/` endpoints, sweeps and the graceful stop.
extension MediaService {
    /// Removes expired entries from every store (audited `expire`). `mediactl serve` calls it periodically.
    public func sweep() {
        let time = now
        for runtime in runtimes.values {
            runtime.copies?.sweep(now: time)
            // Each expired entry leaves the variants index through the store's `expire` event.
            for store in runtime.decidedStores { _ = store.sweep(now: time) }
        }
        auditor.flush()
    }

    /// Waits until every stored response accepted so far has reached its file (``Configuration/writesBehind``).
    public func flushWrites() {
        for runtime in runtimes.values { for store in runtime.decidedStores { store.flush() } }
    }

    /// Waits until every background refresh (`stale-while-revalidate`) started so far has finished.
    public func waitForBackgroundRefreshes() async { await cacheLookup.background.waitForAll() }

    /// Graceful stop: waits for background refreshes and write-behind writes, shreds every sealed file (audited `shred`),
    /// zeroes the keys, writes `stop` and flushes the audit log. Idempotent. A log that cannot be written is retried once
    /// first: written again, it gets its `gap` record, then `stop`; still failing, no `stop` (``Configuration/auditEvents``
    /// hears ``MediaAudit/AuditWriterEvent/closedWhileFailing(_:)``).
    public func stop() async {
        guard !isStopped.exchange(true, ordering: .acquiringAndReleasing) else { return }
        await cacheLookup.background.waitForAll()
        // Disk files are kept for the next start; sealed ones would only be written to be shredded below.
        for runtime in runtimes.values { runtime.disk?.flush() }
        for (name, runtime) in runtimes.sorted(by: { $0.key < $1.key }) {
            let before = runtime.counters.value(.shredded)
            runtime.sealed?.stop()
            auditor.shredSummary(tier: name, count: runtime.counters.value(.shredded) - before, reason: "service-stop")
        }
        keys.destroy()
        try? auditor.stop()
        auditor.close()
        try? auditLog?.close()
    }

    /// The keyed digest under the install's integrity key of cache tag `tag` (64 lower-case hex): what stored entries
    /// carry instead of the tag and what the summary record of a purge by tag names (`tag`), so an auditor who knows a
    /// tag can find its purges in the log, and nobody can read tags from the log or the files.
    public func cacheTagDigest(_ tag: String) -> String { integrityKey.tagDigest(tag).hex }

    /// Removes the stored responses of `scope` from memory and disk, audited as one `purge` batch (``PurgeStage``).
    /// - Returns: the number of stored responses removed (for a soft purge by tag: marked stale).
    /// - Throws: ``ServiceError`` `unknown-route`, `invalid-subject`, `invalid-tag`, `audit` (``PurgeStage/purge(_:)``).
    @discardableResult public func purge(_ scope: PurgeScope) throws -> Int { try purgeStage.purge(scope) }

    /// ``purge(_:)`` of a credential's or subject's partition with its signed erasure receipt (``PurgeStage/purgeWithReceipt(_:log:)``).
    public func purgeWithReceipt(_ scope: PurgeScope) throws -> (count: Int, receipt: String) {
        try purgeStage.purgeWithReceipt(scope, log: auditLog)
    }

    /// The purge stage over this service's commit stage, policy snapshot, keyer, subject keys and clock.
    var purgeStage: PurgeStage {
        PurgeStage(commit: storeCommit, routes: hitRoutes, keyer: keys.keyer, subjects: { [keys] () throws(ServiceError) in try keys.subjects() },
                   clock: configuration.clock)
    }

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
    ///   secret file is refused (``PolicySecrets/load(for:)``) or a tier declares variants and libvips cannot be used here,
    ///   `state-directory` when a new store cannot be opened (the set in force stays), `audit` while the audit log
    ///   cannot be written (``auditOutage``; the set in force stays), or when the records cannot be written (the
    ///   new set is then in force).
    @discardableResult
    public func reload(policies: PolicySet, digest: String) throws -> PolicyReloadReport {
        do {
            let report = try reloading.withLock { _ in try policySwap.swap(policies, digest: digest) }
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

    /// The reload stage over this service's commit stage and policy snapshot.
    var policySwap: PolicySwap {
        PolicySwap(commit: storeCommit, routes: hitRoutes, isStopped: { self.isStopped.load(ordering: .acquiring) },
                   openRuntime: { [configuration, integrityKey, auditor, durabilityBarrier] name, tier, counters in
                       try TierRuntime.open(name: name, tier: tier, counters: counters, configuration: configuration,
                                            integrityKey: integrityKey, auditor: auditor, barrier: durabilityBarrier)
                   },
                   openSubjects: { [keys] in _ = try keys.subjects() })
    }

    /// What the `/_mediactl/` endpoints answer from now: the snapshot, stop state, audit outage and clock in force.
    /// Health and metrics read the one snapshot.
    var endpoints: ServiceEndpoints {
        let snapshot = hitRoutes.snapshot
        return ServiceEndpoints(snapshot: snapshot, isStopping: isStopped.load(ordering: .relaxed),
                                auditOutage: auditOutage, now: now, metrics: metrics(of: snapshot),
                                stateDirectory: configuration.stateDirectory,
                                minimumFreeBytes: configuration.readinessMinimumFreeBytes,
                                reloadFailure: reloadCounts.lastFailure)
    }

    /// The metrics of `snapshot` (``ServiceMetrics``), the one in force by default.
    func metrics(of snapshot: PolicySnapshot? = nil) -> ServiceMetrics {
        ServiceMetrics(snapshot: snapshot ?? hitRoutes.snapshot, reloads: reloadCounts.values, auditor: auditor,
                       requests: requestMetrics, originFetches: forwarding.fetchTimes)
    }

    /// The answer to a `/_mediactl/` request of the admin listener (``ServiceEndpoints``): `/_mediactl/health`,
    /// `/_mediactl/ready` and `/_mediactl/metrics`; `404 no-route` for another path, `405` for another method. The
    /// media pipeline (``handle(_:)``) never answers them: the public listener refuses `/_mediactl/`.
    public func endpoint(_ request: ServiceRequest) -> ServiceResponse {
        endpoints.answer(request)
    }
}
