import HTTPCaching
import MediaPolicy
import MediaStorage

extension MediaService {
    /// Step 3 of the request flow: the RFC 9111 decision over the group's stored responses. The answer
    /// carries the representation it serves (what a derived image is made from).
    func serve(_ context: RequestContext) async -> Served {
        if let variant = context.variant { return Served(await serveVariant(context, variant)) }
        let time = now
        let candidates = context.cachePolicy == .reloadIgnoringLocalCacheData ? [] : loadCandidates(context, now: time)
        var decision = makeDecision(context, candidates: candidates)
        let action = decision.lookup(now: Int64(time))
        let counters = context.runtime.counters
        switch action {
        case .serveFresh(let index, _):
            counters.bump(.hits)
            let candidate = candidates[index]
            let ttl = remaining(candidate, context: context, now: time)
            return Served(Responder.stored(candidate, context: context, now: Int64(time),
                                           status: CacheStatus(hit: true, ttl: ttl), storage: "hit"), .stored(candidate))
        case .serveStale(let index, _, let reason):
            counters.bump(.hits)
            let candidate = candidates[index]
            if reason == .staleWhileRevalidate { refreshInBackground(context, candidates: candidates, selected: index) }
            let ttl = remaining(candidate, context: context, now: time)
            return Served(Responder.stored(candidate, context: context, now: Int64(time),
                                           status: CacheStatus(hit: true, ttl: ttl, detail: reason.rawValue), storage: "hit"),
                          .stored(candidate))
        case .gatewayTimeout:
            return Served(Responder.problem(504, code: "only-if-cached",
                                            detail: "nothing usable is stored and only-if-cached forbids the origin",
                                            outcome: context.outcome))
        case .revalidate(let index, let conditional):
            counters.bump(.revalidations)
            let reason: CacheStatus.Forward = forbiddenByRequest(context, candidates, index ?? decision.selected, now: time)
                ? .request : .stale
            return await forward(context, decision: &decision, candidates: candidates, conditional: conditional, reason: reason)
        case .fetch:
            counters.bump(.misses)
            let reason: CacheStatus.Forward
            if context.cachePolicy == .reloadIgnoringLocalCacheData
                || forbiddenByRequest(context, candidates, decision.selected, now: time) {
                reason = .request
            } else {
                reason = candidates.isEmpty ? .uriMiss : (decision.selected == nil ? .varyMiss : .stale)
            }
            return await forward(context, decision: &decision, candidates: candidates, conditional: nil, reason: reason)
        case .forwardOriginError:
            return Served(Responder.problem(502, code: "origin-error", detail: "the origin failed", outcome: context.outcome))
        }
    }

    /// RFC 9211 §2.2 `fwd=request`: the request's directives (`no-cache`, `max-age`, `min-fresh`)
    /// forbade a response that was fresh under RFC 9111 and the policy cap.
    func forbiddenByRequest(_ context: RequestContext, _ candidates: [Candidate], _ selected: Int?, now: Double) -> Bool {
        if context.cacheRequest.requiresValidation { return true }
        guard let selected else { return false }
        return remaining(candidates[selected], context: context, now: now) > 0
    }

    /// The RFC 9111 decision over `candidates`, with the policy's TTL cap of each (``Candidate/policyTTL``) as the
    /// decision's lifetime cap: a selected response older than its cap is validated even when RFC 9111 would
    /// still call it fresh (``HTTPCaching/ServingDecision/init(request:candidates:role:configuration:digest:lifetimeCaps:)``).
    func makeDecision(_ context: RequestContext, candidates: [Candidate]) -> ServingDecision {
        ServingDecision(request: context.cacheRequest, candidates: candidates.map(\.response), role: context.role,
                        configuration: ServingDecision.Configuration(staleIfError: Int64(context.tier.serveStaleOnError)),
                        digest: digest, lifetimeCaps: candidates.map(\.policyTTL))
    }

    /// Remaining freshness under both RFC 9111 and the policy cap (negative when stale), for `Cache-Status: ttl`.
    func remaining(_ candidate: Candidate, context: RequestContext, now: Double) -> Int64 {
        let age = candidate.response.currentAge(now: Int64(now))
        let lifetime = min(candidate.response.freshnessLifetime(role: context.role), candidate.policyTTL)
        return lifetime - age
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
            var decision = makeDecision(context, candidates: candidates)
            _ = decision.lookup(now: Int64(now))
            _ = await forward(context, decision: &decision, candidates: candidates,
                              conditional: conditional.isEmpty ? nil : conditional, reason: .stale)
        }
    }
}
