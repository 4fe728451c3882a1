import MediaCore
/// What the caller of ``ServingDecision`` does next.
public enum ServingAction: Sendable, Hashable {
    /// Serve `candidates[index]` as is, with `Age: age` (§4.2, §5.1).
    case serveFresh(index: Int, age: Int64)
    /// Serve `candidates[index]` although stale, with `Age: age`, for `reason`
    /// (for ``StaleReason/staleWhileRevalidate`` the caller also revalidates in the background).
    case serveStale(index: Int, age: Int64, reason: StaleReason)
    /// Send a conditional request with `conditionalFields` added (§4.3.1); `index` is the stored
    /// response being validated, or `nil` when none matches the request's `Vary` but other stored
    /// responses offered validators. Feed a 304 to ``NotModified``; report errors to
    /// ``ServingDecision/originFailed(status:now:)``.
    case revalidate(index: Int?, conditionalFields: HTTPFields)
    /// Forward the request unconditionally: nothing usable and no validator, or an unsafe method.
    case fetch
    /// Answer 504: `only-if-cached` and nothing usable without contacting the origin (§5.2.1.7).
    case gatewayTimeout
    /// After ``ServingDecision/originFailed(status:now:)``: no stored response may be served; pass the
    /// origin's error (or the caller's own 502/504) on.
    case forwardOriginError
}

/// Why a stale response is served (RFC 9111 §4.2.4, RFC 5861).
public enum StaleReason: String, Sendable, Hashable {
    /// The request's `max-stale` accepts this staleness (§5.2.1.2).
    case maxStale = "max-stale"
    /// The response's `stale-while-revalidate` window (RFC 5861 §3); refresh in the background.
    case staleWhileRevalidate = "stale-while-revalidate"
    /// The origin failed and `stale-if-error` (RFC 5861 §4) or the configured window allows it.
    case staleIfError = "stale-if-error"
}
