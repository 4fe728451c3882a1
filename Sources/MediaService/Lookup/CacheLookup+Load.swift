import MediaStorage

extension CacheLookup {
    /// The stored responses of the request's group, dropping (and auditing) ones past their `expiresAt`
    /// (``StoreCommit/expire(_:in:)``); with `readsFiles` false, `nil` as soon as one of them could only be read from
    /// a file (the caller must not block on I/O), and nothing is removed for it.
    static func load(_ context: RequestContext, now: Double, readsFiles: Bool, commit: StoreCommit) -> [Candidate]? {
        var out: [Candidate] = []
        let runtime = context.runtime
        for storeKey in runtime.storeKeys(group: context.groupKey) {
            let found = readsFiles ? runtime.entry(for: storeKey) : runtime.entryInMemory(for: storeKey)
            guard let entry = found else {
                if !readsFiles && runtime.hasFileStores { return nil }
                runtime.unindexStoredResponse(storeKey)
                continue
            }
            if entry.metadata.expiresAt <= now {
                // Only this entry: a whole-store sweep does not belong on the request path.
                commit.expire(storeKey, in: runtime)
                continue
            }
            // Decoded once per stored entry and kept with it: memory hits never re-parse the head.
            guard let decoded = HitEntry.of(entry)?.head else {
                runtime.remove(storeKey)
                continue
            }
            out.append(Candidate(storeKey: storeKey, response: decoded.response, head: decoded.head, entry: entry,
                                 policyTTL: decoded.head.policyTTL))
        }
        return out
    }
}
