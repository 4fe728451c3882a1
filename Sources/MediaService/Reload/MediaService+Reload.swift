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

    /// ``makeRuntime(name:tier:counters:configuration:integrityKey:auditor:barrier:)`` with this service's configuration.
    func openRuntime(name: String, tier: Tier, counters: TierCounters) throws -> TierRuntime {
        do {
            return try Self.makeRuntime(name: name, tier: tier, counters: counters, configuration: configuration,
                                        integrityKey: integrityKey, auditor: auditor, barrier: durabilityBarrier)
        } catch {
            throw ServiceError(.stateDirectory, "cannot open the stores of tier \(name): \(error); the policies in force stay")
        }
    }

    /// The reload stage over this service's commit stage and policy snapshot.
    var policySwap: PolicySwap {
        PolicySwap(commit: storeCommit, routes: hitRoutes, isStopped: { self.isStopped.load(ordering: .acquiring) },
                   openRuntime: { try self.openRuntime(name: $0, tier: $1, counters: $2) },
                   openSubjects: { [keys] in _ = try keys.subjects() })
    }
}
