import HTTPCaching
import MediaPolicy
import MediaStorage

extension MediaService {
    /// Step 3 of the request flow: the RFC 9111 decision over the group's stored responses. The answer
    /// carries the representation it serves (what a derived image is made from).
    func serve(_ context: RequestContext) async -> Served {
        if let variant = context.variant { return Served(await serveVariant(context, variant)) }
        let lookup = lookup(context)
        let counters = context.runtime.counters
        switch lookup.decide() {
        case .serve(let index, let status, let stale):
            counters.bump(.hits)
            if stale == .staleWhileRevalidate { refreshInBackground(context, candidates: lookup.candidates, selected: index) }
            return Served(.stored(lookup.candidates[index]), context: context, now: Int64(lookup.now), status: status,
                          storage: "hit")
        case .forward(var decision, let conditional, let reason, let validates):
            counters.bump(validates ? .revalidations : .misses)
            return await forward(context, decision: &decision, candidates: lookup.candidates, conditional: conditional,
                                 reason: reason)
        case .answer(let response):
            return Served(response)
        }
    }

    /// The ``CacheLookup`` of `context` now: the group's stored responses (none for a reload request).
    func lookup(_ context: RequestContext) -> CacheLookup {
        let time = now
        let candidates = context.cachePolicy == .reloadIgnoringLocalCacheData ? [] : loadCandidates(context, now: time)
        return CacheLookup(context: context, candidates: candidates, now: time, keys: keys)
    }

    /// The stored responses of the request's group, dropping (and auditing) ones past their `expiresAt`.
    func loadCandidates(_ context: RequestContext, now: Double) -> [Candidate] {
        loadCandidates(context, now: now, readsFiles: true) ?? []
    }

    /// The group's stored responses; with `readsFiles` false, `nil` as soon as one of them could only
    /// be read from a file (the caller must not block on I/O), and nothing is removed for it.
    func loadCandidates(_ context: RequestContext, now: Double, readsFiles: Bool) -> [Candidate]? {
        var out: [Candidate] = []
        for storeKey in context.runtime.storeKeys(group: context.groupKey) {
            let found = readsFiles ? context.runtime.entry(for: storeKey) : context.runtime.entryInMemory(for: storeKey)
            guard let entry = found else {
                if !readsFiles && context.runtime.hasFileStores { return nil }
                context.runtime.unindexStoredResponse(storeKey)
                continue
            }
            if entry.metadata.expiresAt <= now {
                // Only this entry: a whole-store sweep does not belong on the request path.
                expire(storeKey, in: context.runtime)
                continue
            }
            // Decoded once per stored entry and kept with it: memory hits never re-parse the head.
            guard let decoded = HitEntry.of(entry)?.head else {
                context.runtime.remove(storeKey)
                continue
            }
            out.append(Candidate(storeKey: storeKey, response: decoded.response, head: decoded.head, entry: entry,
                                 policyTTL: decoded.head.policyTTL))
        }
        return out
    }

    /// Removes one entry past its `expiresAt` from every store of `runtime`, audited `expire` (reason
    /// `expired`, as ``sweep()`` records it).
    func expire(_ storeKey: String, in runtime: TierRuntime) {
        gate.exclusive { expireUnderGate(storeKey, in: runtime) }
    }

    /// The removal and its record, with no store of the same key between them (``StoreGate``).
    private func expireUnderGate(_ storeKey: String, in runtime: TierRuntime) {
        guard let metadata = runtime.remove(storeKey) else { return }
        auditor.recordRemoval(.expire, metadata, storeKey: storeKey, reason: "expired")
        runtime.counters.bump(.expired)
    }

    /// `stale-while-revalidate`: validate in the background, coalesced with other refreshes of the group.
    func refreshInBackground(_ context: RequestContext, candidates: [Candidate], selected: Int) {
        let conditional = ConditionalRequest.fields(candidates: candidates.map(\.response), validating: selected)
        var refresh = context
        refresh.interim = nil   // the client already has its answer: a refresh forwards no interim response
        background.run { [self, context = refresh] in
            var decision = CacheLookup(context: context, candidates: candidates, now: now, keys: keys).decision
            _ = decision.lookup(now: Int64(now))
            _ = await forward(context, decision: &decision, candidates: candidates,
                              conditional: conditional.isEmpty ? nil : conditional, reason: .stale)
        }
    }
}
