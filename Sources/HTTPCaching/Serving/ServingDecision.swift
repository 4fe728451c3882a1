import MediaCore
/// The RFC 9111 §4 serving decision as a pure state machine: create it with the
/// presented request and the stored responses of its primary key (and partition), call
/// ``lookup(now:)`` and perform the returned ``ServingAction``; if that action contacted the origin
/// and the origin failed, call ``originFailed(status:now:)``.
///
/// Rules: the most recent stored response (by `Date`, then response time) whose secondary key
/// matches the request is selected (§4.1). It is served fresh when its lifetime exceeds its age and
/// the request's `max-age`/`min-fresh` hold (§4.2, §5.2.1). Request `no-cache` (or `Pragma: no-cache`
/// without `Cache-Control`, §5.4) and response `no-cache` always revalidate (§5.2.2.4). A stale
/// response is served only when the response has no `must-revalidate` (nor, in a shared cache,
/// `proxy-revalidate` or `s-maxage`, §5.2.2.2, §5.2.2.8, §5.2.2.10) and either the request's
/// `max-stale` or the response's `stale-while-revalidate` allows the staleness (§4.2.4).
/// `only-if-cached` never contacts the origin (504 instead, §5.2.1.7). Request `no-store` does not
/// prevent serving a stored response (§5.2.1.5 only forbids storing). A HEAD request is answered from
/// a stored GET response (its fields, no body).
public struct ServingDecision: Sendable {
    /// Tunables.
    public struct Configuration: Sendable, Hashable {
        /// Heuristic freshness settings. Default: 10 %, no cap.
        public var freshness: Freshness.Configuration
        /// Seconds of staleness served after an origin error when the response has no
        /// `stale-if-error` (the tier's `serveStaleOnError`). Default: 0.
        public var staleIfError: Int64

        public init(freshness: Freshness.Configuration = Freshness.Configuration(), staleIfError: Int64 = 0) {
            self.freshness = freshness
            self.staleIfError = staleIfError
        }
    }

    enum State: Sendable {
        case initial
        case awaitingOrigin(selected: Int?)
        case finished
    }

    /// The presented request's constraints.
    public let request: CacheRequest.Directives
    /// The stored responses for the request's primary key.
    public let candidates: [StoredResponse]
    /// The cache role.
    public let role: CacheRole
    /// The configuration.
    public let configuration: Configuration
    /// Index of the selected stored response (§4.1), or `nil` when none matches.
    public let selected: Int?
    private let snapshot: Snapshot?
    private var state: State = .initial

    /// - Parameters:
    ///   - request: the presented request.
    ///   - candidates: stored responses of the same primary key (and partition), any order.
    ///   - role: shared or private cache.
    ///   - configuration: default ``Configuration/init(freshness:staleIfError:)``.
    ///   - digest: the keyed digest used for sensitive `Vary` fields when the responses were stored.
    ///   - lifetimeCaps: the cache's own cap on each candidate's freshness (a policy's maximum time to live), as
    ///     a current age in seconds, parallel to `candidates`; empty (the default) for none. A selected response
    ///     whose current age reached a cap shorter than its freshness lifetime is validated, unless the request's
    ///     `max-stale` covers the excess over the cap (it then counts as stale by that excess, §4.2.4); a cap
    ///     longer than the lifetime changes nothing, so the response's own staleness rules apply unchanged.
    public init(
        request: CacheRequest, candidates: [StoredResponse], role: CacheRole,
        configuration: Configuration = Configuration(), digest: (String) -> String, lifetimeCaps: [Int64] = []
    ) {
        self.request = request.directives
        self.candidates = candidates
        self.role = role
        self.configuration = configuration
        var best: Int?
        for index in candidates.indices where candidates[index].matches(request: request.fields, digest: digest) {
            if let current = best {
                if Self.isMoreRecent(candidates[index], than: candidates[current]) { best = index }
            } else {
                best = index
            }
        }
        selected = best
        snapshot = best.map { index in
            candidates.withUnsafeBufferPointer {
                Snapshot($0.baseAddress! + index, role: role, configuration: configuration.freshness,
                         cap: lifetimeCaps.indices.contains(index) ? lifetimeCaps[index] : nil)
            }
        }
    }

    /// The first event: decides how to answer the request at `now` (seconds since the epoch).
    /// Calling it again returns ``ServingAction/fetch`` (the machine has moved on).
    public mutating func lookup(now: EpochSeconds) -> ServingAction {
        guard case .initial = state else { return .fetch }
        guard request.isServableFromCache else {
            state = .finished
            return .fetch
        }
        guard let index = selected else {
            if request.onlyIfCached { state = .finished; return .gatewayTimeout }
            return contactOrigin(selected: nil)
        }
        if let action = reuse(index: index, now: now) {
            state = .finished
            return action
        }
        if request.onlyIfCached { state = .finished; return .gatewayTimeout }
        return contactOrigin(selected: index)
    }

    /// The action serving `stored` without contacting the origin, or `nil` when it must be validated.
    private func reuse(index: Int, now: EpochSeconds) -> ServingAction? {
        guard let stored = snapshot, !request.requiresValidation && !stored.noCache else { return nil }
        let lifetime = stored.lifetime
        let age = stored.currentAge(now: now)
        if let cap = stored.cap, cap < lifetime, age >= cap {
            guard let maxStale = request.maxStale, age - cap <= maxStale else { return nil }
        }
        let maxAgeHolds = request.maxAge.map { age <= $0 } ?? true
        if lifetime > age {
            guard maxAgeHolds && (request.minFresh.map { lifetime - age >= $0 } ?? true) else { return nil }
            return .serveFresh(index: index, age: age)
        }
        guard !stored.forbidsStale else { return nil }
        let staleness = age - lifetime
        if let maxStale = request.maxStale, staleness <= maxStale, maxAgeHolds {
            return .serveStale(index: index, age: age, reason: .maxStale)
        }
        if let window = stored.staleWhileRevalidate, staleness <= window, maxAgeHolds,
           request.maxStale == nil, request.minFresh == nil {
            return .serveStale(index: index, age: age, reason: .staleWhileRevalidate)
        }
        return nil
    }

    static func isMoreRecent(_ b: borrowing StoredResponse, than a: borrowing StoredResponse) -> Bool {
        (b.parsed.date ?? b.responseTime, b.responseTime) >= (a.parsed.date ?? a.responseTime, a.responseTime)
    }

    /// The origin could not be reached (`status == nil`) or answered `status` while a
    /// ``ServingAction/revalidate(index:conditionalFields:)`` or ``ServingAction/fetch`` was in flight.
    /// Only `nil` and 500…599 count as errors. Serves the selected stored response stale
    /// (``StaleReason/staleIfError``, RFC 5861 §4) when its staleness (0 if still fresh) is within
    /// `max(response stale-if-error ?? Configuration.staleIfError, request stale-if-error ?? 0)` and no
    /// directive forbids it (response `no-cache`, `must-revalidate`, and in a shared cache
    /// `proxy-revalidate` or `s-maxage`, §4.2.4); otherwise ``ServingAction/forwardOriginError``
    /// (also when called in any state other than after `revalidate`/`fetch`).
    public mutating func originFailed(status: HTTPStatus?, now: EpochSeconds) -> ServingAction {
        guard case .awaitingOrigin(let selected) = state else { return .forwardOriginError }
        state = .finished
        if let status, !(500...599).contains(status) { return .forwardOriginError }
        guard let index = selected, let stored = snapshot, !stored.forbidsStale, !stored.noCache else {
            return .forwardOriginError
        }
        let window = max(stored.staleIfError ?? configuration.staleIfError, request.staleIfError ?? 0)
        let age = stored.currentAge(now: now)
        let staleness = max(0, age - stored.lifetime)
        guard staleness <= window else { return .forwardOriginError }
        return .serveStale(index: index, age: age, reason: .staleIfError)
    }

    private mutating func contactOrigin(selected: Int?) -> ServingAction {
        state = .awaitingOrigin(selected: selected)
        let conditional = ConditionalRequest.fields(candidates: candidates, validating: selected)
        return conditional.isEmpty ? .fetch : .revalidate(index: selected, conditionalFields: conditional)
    }
}
