import MediaAudit
import MediaCrypto
import MediaPolicy
import MediaStorage

extension TierRuntime {
    /// A new runtime for `tier`, named `name` (its stores opened on the state directory), whose store events are audited and
    /// counted in `counters`; sealed files an earlier process left are shredded while its store opens (audited,
    /// closed by a `shred` summary).
    /// - Parameters:
    ///   - integrityKey: the install's key of the disk store's file tags.
    ///   - barrier: what an object file waits on before it becomes visible (its record durable,
    ///     docs/storage.md "Durability"), or `nil`.
    static func make(name: String, tier: Tier, counters: TierCounters, configuration: ServiceConfiguration,
                            integrityKey: IntegrityKey, auditor: ServiceAuditor,
                            barrier: (any DurabilityBarrier)?) throws -> TierRuntime {
        let shredsBefore = counters.value(.shredded)
        let runtime = try TierRuntime(
            tier: tier, counters: counters, stateDirectory: configuration.stateDirectory, integrityKey: integrityKey,
            synchronizesWrites: configuration.synchronizesWrites, writesBehind: configuration.writesBehind,
            barrier: barrier, observer: configuration.durabilityObservers.files
        ) { event in
            auditor.record(event, tier: name)
            switch event.kind {
            case .evict, .corrupt: counters.bump(.evicted)
            case .expire: counters.bump(.expired)
            case .shred: counters.bump(.shredded)
            }
        }
        // Sealed files of an earlier process were shredded while the store opened: close the batch.
        auditor.shredSummary(tier: name, count: counters.value(.shredded) - shredsBefore,
                             reason: ReasonCode.unreadableAfterRestart.rawValue)
        return runtime
    }

    /// ``make(name:tier:counters:configuration:integrityKey:auditor:barrier:)`` for a reload: a store that cannot be
    /// opened is a ``ServiceError`` `state-directory`, and the policies in force stay.
    static func open(name: String, tier: Tier, counters: TierCounters, configuration: ServiceConfiguration,
                     integrityKey: IntegrityKey, auditor: ServiceAuditor,
                     barrier: (any DurabilityBarrier)?) throws -> TierRuntime {
        do {
            return try make(name: name, tier: tier, counters: counters, configuration: configuration,
                            integrityKey: integrityKey, auditor: auditor, barrier: barrier)
        } catch {
            throw ServiceError(.stateDirectory, "cannot open the stores of tier \(name): \(error); the policies in force stay")
        }
    }

    /// The runtimes of `tiers` at start (``make(name:tier:counters:configuration:integrityKey:auditor:barrier:)``);
    /// then the files of tiers the policies no longer keep in files (removed, renamed or narrowed) go, audited
    /// (``UnownedTierFolders``).
    static func makeAll(_ tiers: [String: Tier], configuration: ServiceConfiguration, integrityKey: IntegrityKey,
                        auditor: ServiceAuditor, barrier: (any DurabilityBarrier)?) throws -> [String: TierRuntime] {
        var runtimes: [String: TierRuntime] = [:]
        for (name, tier) in tiers {
            runtimes[name] = try make(name: name, tier: tier, counters: TierCounters(), configuration: configuration,
                                      integrityKey: integrityKey, auditor: auditor, barrier: barrier)
        }
        try UnownedTierFolders.clear(stateDirectory: configuration.stateDirectory, runtimes: runtimes,
                                     integrityKey: integrityKey, auditor: auditor)
        UnownedTierFolders.dropUnscopedKeys(runtimes: runtimes, auditor: auditor)
        return runtimes
    }
}
