import HTTPCaching
import MediaPolicy
import MediaStorage

extension MediaService {
    /// Step 3 of the request flow: the RFC 9111 decision over the group's stored responses.
    func serve(_ context: RequestContext) async -> ServiceResponse {
        if let variant = context.variant { return await serveVariant(context, variant) }
        let time = now
        let candidates = context.cachePolicy == .reloadIgnoringLocalCacheData ? [] : loadCandidates(context, now: time)
        var decision = makeDecision(context, candidates: candidates, now: time)
        let action = decision.lookup(now: Int64(time))
        let counters = context.runtime.counters
        switch action {
        case .serveFresh(let index, _):
            counters.bump(.hits)
            let candidate = candidates[index]
            context.capture?.set(SourceCapture.Source(candidate))
            let ttl = remaining(candidate, context: context, now: time)
            return Responder.stored(candidate, context: context, now: Int64(time),
                                    status: CacheStatus(hit: true, ttl: ttl), storage: "hit")
        case .serveStale(let index, _, let reason):
            counters.bump(.hits)
            let candidate = candidates[index]
            context.capture?.set(SourceCapture.Source(candidate))
            if reason == .staleWhileRevalidate { refreshInBackground(context, candidates: candidates, selected: index) }
            let ttl = remaining(candidate, context: context, now: time)
            return Responder.stored(candidate, context: context, now: Int64(time),
                                    status: CacheStatus(hit: true, ttl: ttl, detail: reason.rawValue), storage: "hit")
        case .gatewayTimeout:
            return Responder.problem(504, code: "only-if-cached", detail: "nothing usable is stored and only-if-cached forbids the origin",
                                     outcome: context.outcome)
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
            return Responder.problem(502, code: "origin-error", detail: "the origin failed", outcome: context.outcome)
        }
    }

    /// RFC 9211 §2.2 `fwd=request`: the request's directives (`no-cache`, `max-age`, `min-fresh`)
    /// forbade a response that was fresh under RFC 9111 and the policy cap.
    func forbiddenByRequest(_ context: RequestContext, _ candidates: [Candidate], _ selected: Int?, now: Double) -> Bool {
        if context.cacheRequest.requiresValidation { return true }
        guard let selected else { return false }
        return remaining(candidates[selected], context: context, now: now) > 0
    }

    /// The decision, with the policy's TTL cap applied: a selected response older than the cap is
    /// validated even when RFC 9111 would still call it fresh.
    ///
    /// The cap only acts when it is shorter than the response's own freshness lifetime; otherwise RFC
    /// 9111 already calls the response stale, and the request's `max-stale`, `only-if-cached` and
    /// `stale-if-error` apply unchanged (§4.2.4, §5.2.1). Past a shorter cap the response counts as
    /// stale by the excess, so a request `max-stale` covering the excess still accepts it.
    func makeDecision(_ context: RequestContext, candidates: [Candidate], now: Double) -> ServingDecision {
        let configuration = ServingDecision.Configuration(staleIfError: Int64(context.tier.serveStaleOnError))
        let stored = candidates.map(\.response)
        let decision = ServingDecision(request: context.cacheRequest, candidates: stored, role: context.role,
                                       configuration: configuration, digest: digest)
        guard let selected = decision.selected else { return decision }
        let candidate = candidates[selected]
        let age = candidate.response.currentAge(now: Int64(now))
        guard age >= candidate.policyTTL,
              candidate.policyTTL < candidate.response.freshnessLifetime(role: context.role)
        else { return decision }
        if let maxStale = context.cacheRequest.directives.maxStale, age - candidate.policyTTL <= maxStale { return decision }
        var fields = context.cacheRequest.fields
        fields.append("Cache-Control", "no-cache")
        return ServingDecision(request: CacheRequest(method: "GET", fields: fields), candidates: stored,
                               role: context.role, configuration: configuration, digest: digest)
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
                context.runtime.removeVariant(storeKey)
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
            var decision = makeDecision(context, candidates: candidates, now: now)
            _ = decision.lookup(now: Int64(now))
            _ = await forward(context, decision: &decision, candidates: candidates,
                              conditional: conditional.isEmpty ? nil : conditional, reason: .stale)
        }
    }
}
