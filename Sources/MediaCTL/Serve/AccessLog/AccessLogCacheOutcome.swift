/// The access log's `cache` field: the service's own `Cache-Status` (RFC 9211) reduced to one word.
///
/// The mapping, first match wins (docs/operations.md, "Access log"):
///
/// | `Cache-Status` sent | `cache` |
/// |---|---|
/// | none, status ≥ 400 (refusals and problems: no route, 401, 405, 413, an origin answer refused) | `refused` |
/// | none, status < 400 (health, metrics, purge) | `null` |
/// | has `collapsed` (joined another request's origin exchange, RFC 9211 §2.5) | `coalesced` |
/// | `hit` with a `detail` (`stale-while-revalidate`, `max-stale`), or a `ttl` ≤ 0 | `stale` |
/// | `hit` | `hit` |
/// | `fwd=…` with `detail=stale-if-error` (origin failed, stored response served) | `stale` |
/// | `fwd=stale` or `fwd=request` with `fwd-status=304` (stored response validated and reused) | `revalidated` |
/// | any other `fwd=…` (fetched: stored or not, a pass-through method) | `miss` |
public enum AccessLogCacheOutcome: String, Sendable, Hashable, CaseIterable {
    case hit, stale, miss, coalesced, revalidated, refused

    /// The outcome of a response with status `status` and `Cache-Status` value `cacheStatus`, or `nil`.
    public static func of(cacheStatus: String?, status: Int) -> AccessLogCacheOutcome? {
        guard let cacheStatus else { return status >= 400 ? .refused : nil }
        var hit = false, collapsed = false, staleIfError = false
        var forward: Substring?, forwardStatus: Substring?, detail: Substring?, ttl: Int?
        // `mediactl; hit; ttl=3400` — the first member is the cache name; parameters follow.
        for part in cacheStatus.split(separator: ";").dropFirst() {
            let parameter = part.drop { $0 == " " }
            let pieces = parameter.split(separator: "=", maxSplits: 1)
            let name = pieces.first ?? ""
            let value = pieces.count > 1 ? pieces[1] : nil
            switch name {
            case "hit": hit = true
            case "collapsed": collapsed = true
            case "fwd": forward = value
            case "fwd-status": forwardStatus = value
            case "ttl": ttl = value.flatMap { Int($0) }
            case "detail":
                detail = value
                if value == "stale-if-error" { staleIfError = true }
            default: break
            }
        }
        if collapsed { return .coalesced }
        if hit { return detail != nil || (ttl.map { $0 <= 0 } ?? false) ? .stale : .hit }
        if forward != nil {
            if staleIfError { return .stale }
            if forwardStatus == "304", forward == "stale" || forward == "request" { return .revalidated }
            return .miss
        }
        return status >= 400 ? .refused : nil
    }
}
