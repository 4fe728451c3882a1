import HTTPCaching
import MediaCore
import MediaPolicy
import MediaStorage

/// Steps 3–5 of the request flow for a `GET` or `HEAD`, the stage after ``Admission``: the group's stored responses
/// loaded (``load(_:now:readsFiles:)``) and decided on once (``Group/decide()``: the RFC 9111 §4 serving decision,
/// with the tier's TTL cap as each stored response's lifetime cap, ``Candidate/policyTTL``), then a hit served, the
/// origin asked (``Forwarding``), or a derived image made (``ImageDerivation``). ``serve(_:decided:)`` holds the
/// pipeline's one switch over the decision; the synchronous path's ``cachedAnswer(_:readsFiles:)`` answers a fresh
/// hit and hands anything else on with its decision (``DecidedLookup``).
///
/// A value over the service's stages and shared parts (``MediaService/cacheLookup``).
struct CacheLookup: Sendable {
    let forwarding: Forwarding
    /// Derivations of one variant, coalesced.
    let derivations: SingleFlight<String, Derivation>
    /// The derive stage.
    let derivation: ImageDerivation
    /// Background refreshes (`stale-while-revalidate`).
    let background: BackgroundTasks
    /// Told of each load of a group's stored responses (``ServiceConfiguration/lookupObserver``, tests).
    let lookupObserver: (@Sendable () -> Void)?

    var commit: StoreCommit { forwarding.commit }
    /// Seconds since the epoch, from the configured clock.
    var now: Double { forwarding.now }

    /// What the lookup decided.
    enum Outcome: Sendable {
        /// Serve the stored response at `index` of ``Group/candidates`` with `status`: fresh (`stale` `nil`), or
        /// stale where the request or the response allows it (`status` then carries the reason as its detail). A
        /// ``HTTPCaching/StaleReason/staleWhileRevalidate`` answer is validated in the background by the caller.
        case serve(index: Int, status: CacheStatus, stale: StaleReason?)
        /// Ask the origin: a fetch (`conditional` `nil`) or a validation with the cache's validators. `decision`
        /// continues if the origin fails (``HTTPCaching/ServingDecision/originFailed(status:now:)``); `reason` is
        /// RFC 9211 `fwd`; `validates` tells a validation from a fetch (the counters tell them apart).
        case forward(ServingDecision, conditional: HTTPFields?, reason: CacheStatus.Forward, validates: Bool)
        /// Answer without the origin: `504 only-if-cached`, or `502` when the decision cannot continue.
        case answer(ServiceResponse)
    }

    /// The answer from the cache (RFC 9111): the group's stored responses decided on, then a stored response served,
    /// the origin asked, or a derived image served or made (its source through this same path). The answer carries
    /// the representation it serves (what a derived image is made from).
    /// - Parameter decided: the request's lookup and its decision when the synchronous path made them
    ///   (``cachedAnswer(_:readsFiles:)``), so its stored responses are not loaded and decided again.
    func serve(_ context: RequestContext, decided: DecidedLookup? = nil) async -> Served {
        let selection = context.variant
        // A variant is looked up and stored under its own key (the context's URL is its source's); a decided lookup
        // was made under it already.
        let stored = decided?.lookup.context ?? selection.map { variantContext(context, $0) } ?? context
        let lookup = decided?.lookup ?? self.lookup(stored)
        let counters = context.runtime.counters
        switch decided?.outcome ?? lookup.decide() {
        case .serve(let index, let status, let stale):
            counters.bump(.hits)
            if let selection {
                // No background refresh for a variant served stale: the next request that finds it unusable derives it.
                return Served(storedVariant(lookup.candidates[index], stored: stored, selection: selection, now: lookup.now,
                                            detail: status.detail))
            }
            if stale == .staleWhileRevalidate { refreshInBackground(context, candidates: lookup.candidates, selected: index) }
            return Served(.stored(lookup.candidates[index]), context: context, now: Int64(lookup.now), status: status,
                          storage: .hit)
        case .forward(var decision, let conditional, let reason, let validates):
            if let selection {
                return Served(await deriveVariant(context, stored: stored, selection: selection, candidates: lookup.candidates))
            }
            counters.bump(validates ? .revalidations : .misses)
            return await forwarding.forward(context, decision: &decision, candidates: lookup.candidates,
                                            conditional: conditional, reason: reason)
        case .answer(let response):
            return Served(selection.map { answer(response, $0) } ?? response)
        }
    }

    /// The ``Group`` of `context` now: the group's stored responses (none for a reload request).
    func lookup(_ context: RequestContext) -> Group {
        let time = now
        let candidates = context.cachePolicy == .reloadIgnoringLocalCacheData
            ? [] : load(context, now: time, readsFiles: true) ?? []
        return Group(context: context, candidates: candidates, now: time, keys: commit.keys)
    }

    /// The stored responses of the request's group, dropping (and auditing) ones past their `expiresAt`
    /// (``StoreCommit/expire(_:in:)``); with `readsFiles` false, `nil` as soon as one of them could only be read from
    /// a file (the caller must not block on I/O), and nothing is removed for it. Told to the ``lookupObserver``.
    func load(_ context: RequestContext, now: Double, readsFiles: Bool) -> [Candidate]? {
        lookupObserver?()
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

    /// Remaining freshness under both RFC 9111 and the policy cap (negative when stale), seconds, for
    /// `Cache-Status: ttl` (RFC 9211 §2.5).
    static func remaining(_ candidate: Candidate, role: CacheRole, freshness: Freshness.Configuration, now: Double) -> Int64 {
        let age = candidate.response.currentAge(now: Int64(now))
        let lifetime = min(candidate.response.freshnessLifetime(role: role, configuration: freshness), candidate.policyTTL)
        return lifetime - age
    }
}

extension CacheLookup {
    /// What the synchronous path found for an admitted request (``cachedAnswer(_:readsFiles:)``).
    enum CachedAnswer {
        /// A fresh stored response (or variant), answered without suspending.
        case answer(ServiceResponse)
        /// No answer without the origin or a file read: ``serve(_:decided:)`` continues from `decided`, the lookup
        /// made here and its decision, or loads the group itself when `decided` is `nil` (a stored response only in a
        /// file, a method other than GET and HEAD, a reload request).
        case pending(decided: DecidedLookup?)
    }

    /// The synchronous path's answer from the cache: the group's stored responses held in memory loaded and decided
    /// on (``Group``) once; a fresh one is answered, anything else is handed on with the decision.
    /// - Parameter readsFiles: whether entries only in files may be read (`false` on an event loop).
    func cachedAnswer(_ context: RequestContext, readsFiles: Bool) -> CachedAnswer {
        guard context.method.isRead, context.cachePolicy != .reloadIgnoringLocalCacheData else {
            return .pending(decided: nil)
        }
        let time = now
        // A variant is looked up under its own key (the context's URL is its source's).
        let stored = context.variant.map { variantContext(context, $0) } ?? context
        guard let candidates = load(stored, now: time, readsFiles: readsFiles) else {
            return .pending(decided: nil)
        }
        let lookup = Group(context: stored, candidates: candidates, now: time, keys: commit.keys)
        let outcome = lookup.decide()
        // Only a fresh response is answered here: anything else takes the async path, with this decision.
        guard case .serve(let index, let status, nil) = outcome else {
            return .pending(decided: DecidedLookup(lookup: lookup, outcome: outcome))
        }
        context.runtime.counters.bump(.hits)
        let candidate = candidates[index]
        if let variant = context.variant {
            return .answer(storedVariant(candidate, stored: stored, selection: variant, now: time))
        }
        return .answer(Responder.stored(candidate, context: context, now: Int64(time), status: status, storage: .hit))
    }
}

extension CacheLookup {
    /// A request's group of stored responses at one clock reading, and the decision over them: a value over its
    /// inputs (the admitted request, the candidates loaded, the clock reading and the keyed digest of sensitive `Vary`
    /// fields). It reads no store and asks no origin. Its ``Outcome`` says what to do next.
    struct Group: Sendable {
        var context: RequestContext
        /// The group's stored responses (``CacheLookup/load(_:now:readsFiles:)``); empty for a reload request.
        var candidates: [Candidate]
        /// Seconds since the epoch.
        var now: Double
        /// The keyed digest of sensitive `Vary` fields the responses were stored under (``RequestKeys/digest(_:)``).
        var keys: any RequestKeys

        /// The decision over ``candidates`` with their caps.
        var decision: ServingDecision {
            ServingDecision(request: context.cacheRequest, candidates: candidates.map(\.response), role: context.role,
                            configuration: ServingDecision.Configuration(freshness: context.tier.freshness,
                                                                         staleIfError: Int64(context.tier.serveStaleOnError)),
                            digest: keys.digest, lifetimeCaps: candidates.map(\.policyTTL))
        }

        /// Decides; see ``Outcome``.
        func decide() -> Outcome {
            var decision = decision
            switch decision.lookup(now: Int64(now)) {
            case .serveFresh(let index, _):
                let candidate = candidates[index]
                return .serve(index: index, status: CacheStatus(hit: true, ttl: remaining(candidate)),
                              stale: nil)
            case .serveStale(let index, _, let reason):
                let candidate = candidates[index]
                return .serve(index: index, status: CacheStatus(hit: true, ttl: remaining(candidate),
                                                                detail: reason.rawValue),
                              stale: reason)
            case .gatewayTimeout:
                return .answer(Responder.problem(504, code: "only-if-cached",
                                                 detail: "nothing usable is stored and only-if-cached forbids the origin",
                                                 outcome: context.outcome))
            case .revalidate(let index, let conditional):
                let reason: CacheStatus.Forward = forbiddenByRequest(index ?? decision.selected) ? .request : .stale
                return .forward(decision, conditional: conditional, reason: reason, validates: true)
            case .fetch:
                let reason: CacheStatus.Forward
                if context.cachePolicy == .reloadIgnoringLocalCacheData || forbiddenByRequest(decision.selected) {
                    reason = .request
                } else {
                    reason = candidates.isEmpty ? .uriMiss : (decision.selected == nil ? .varyMiss : .stale)
                }
                return .forward(decision, conditional: nil, reason: reason, validates: false)
            case .forwardOriginError:
                return .answer(Responder.problem(502, code: "origin-error", detail: "the origin failed", outcome: context.outcome))
            }
        }

        /// RFC 9211 §2.2 `fwd=request`: the request's directives (`no-cache`, `max-age`, `min-fresh`) forbade a response
        /// that was fresh under RFC 9111 and the policy cap.
        func forbiddenByRequest(_ selected: Int?) -> Bool {
            if context.cacheRequest.requiresValidation { return true }
            guard let selected else { return false }
            return remaining(candidates[selected]) > 0
        }

        /// ``CacheLookup/remaining(_:role:freshness:now:)`` of `candidate` for this request now.
        func remaining(_ candidate: Candidate) -> Int64 {
            CacheLookup.remaining(candidate, role: context.role, freshness: context.tier.freshness, now: now)
        }
    }
}
