import MediaStorage

extension StoreCommit {
    /// Removes one entry past its `expiresAt` from every store of `runtime`, audited `expire` (reason
    /// `expired`, as ``MediaService/sweep()`` records it).
    func expire(_ storeKey: String, in runtime: TierRuntime) {
        gate.exclusive {
            // The removal and its record, with no store of the same key between them (``StoreGate``).
            guard let metadata = runtime.remove(storeKey) else { return }
            auditor.recordRemoval(.expire, metadata, storeKey: storeKey, reason: "expired")
            runtime.counters.bump(.expired)
        }
    }
}
