import HTTPCaching
import MediaCore
import MediaStorage

/// Step 3 of the request flow, the stage after ``Admission``: the RFC 9111 §4 serving decision over the stored
/// responses of a request's group, with the tier's TTL cap as each stored response's lifetime cap
/// (``Candidate/policyTTL``: a response older than its cap is validated even while RFC 9111 calls it fresh).
///
/// A value over its inputs (the admitted request, the candidates the caller loaded, the clock reading and the keyed
/// digest of sensitive `Vary` fields): it reads no store and asks no origin. Its ``Outcome`` says what to do next.
struct CacheLookup: Sendable {
    /// What the lookup decided.
    enum Outcome: Sendable {
        /// Serve the stored response at `index` of ``CacheLookup/candidates`` with `status`: fresh (`stale` `nil`), or
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

    var context: RequestContext
    /// The group's stored responses (``load(_:now:readsFiles:commit:)``); empty for a reload request.
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
            return .serve(index: index, status: CacheStatus(hit: true, ttl: Self.remaining(candidate, role: context.role, freshness: context.tier.freshness, now: now)),
                          stale: nil)
        case .serveStale(let index, _, let reason):
            let candidate = candidates[index]
            return .serve(index: index, status: CacheStatus(hit: true, ttl: Self.remaining(candidate, role: context.role, freshness: context.tier.freshness, now: now),
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
        return Self.remaining(candidates[selected], role: context.role, freshness: context.tier.freshness, now: now) > 0
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
