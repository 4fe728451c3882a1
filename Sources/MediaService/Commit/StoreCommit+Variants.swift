import MediaCore
import MediaStorage

extension StoreCommit {
    /// Removes the variants derived from the source group `sourceGroup` (its representation changed: a new
    /// response was stored for it), each audited `evict` with reason `source-changed`.
    /// The source group's change counter is bumped first, so a derivation of the old representation that has not
    /// stored its variant yet finds it changed and stores nothing (``commit(_:into:storeKey:subject:decision:context:derivation:)``).
    func dropVariants(ofSource sourceGroup: String, in runtime: TierRuntime) {
        runtime.derivedIndex.bumpGeneration(of: sourceGroup)
        guard !runtime.derivedIndex.variants(of: sourceGroup).isEmpty else { return }
        gate.exclusive { evictVariants(ofSource: sourceGroup, in: runtime, reason: "source-changed") }
    }

    /// ``dropVariants(ofSource:in:)`` for a caller that holds the ``StoreGate`` exclusively (invalidation).
    func dropVariantsUnderGate(ofSource sourceGroup: String, in runtime: TierRuntime, reason: String) {
        runtime.derivedIndex.bumpGeneration(of: sourceGroup)
        evictVariants(ofSource: sourceGroup, in: runtime, reason: reason)
    }

    /// Removes the indexed variants of `sourceGroup`, each audited `evict` with `reason` (the gate held exclusively).
    private func evictVariants(ofSource sourceGroup: String, in runtime: TierRuntime, reason: String) {
        for key in runtime.derivedIndex.variants(of: sourceGroup) {
            guard let metadata = runtime.remove(key) else { continue }
            auditor.recordRemoval(.evict, metadata, storeKey: key, reason: reason)
            runtime.counters.bump(.evicted)
        }
    }
}
