#if canImport(Glibc)
    import Glibc
#endif

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
/// | neither `hit` nor `fwd`, status ≥ 400 | `refused` |
/// | neither `hit` nor `fwd` (a variant derived from a stored source: made here, nothing forwarded) | `miss` |
public enum AccessLogCacheOutcome: String, Sendable, Hashable, CaseIterable {
    case hit, stale, miss, coalesced, revalidated, refused

    /// The outcome of a response with status `status` and `Cache-Status` value `cacheStatus`, or `nil`.
    /// One pass over the value's UTF-8 bytes (this runs for every access-log line).
    public static func of(cacheStatus: String?, status: Int) -> AccessLogCacheOutcome? {
        guard var value = cacheStatus else { return status >= 400 ? .refused : nil }
        return value.withUTF8 { bytes in Parameters(bytes).outcome(status: status) }
    }

    /// ``of(cacheStatus:status:)`` for the value's UTF-8 bytes.
    public static func of(cacheStatusBytes cacheStatus: UnsafeBufferPointer<UInt8>?, status: Int) -> AccessLogCacheOutcome? {
        guard let cacheStatus else { return status >= 400 ? .refused : nil }
        return Parameters(cacheStatus).outcome(status: status)
    }

    /// The parameters of `mediactl; hit; ttl=3400` that decide the outcome (the first member, the cache name, skipped).
    private struct Parameters {
        var hit = false, collapsed = false, staleIfError = false, forward = false, detail = false
        var forwardRevalidates = false, forwardStatus304 = false, nonPositiveTTL = false

        init(_ bytes: UnsafeBufferPointer<UInt8>) {
            var start = 0
            var first = true
            for end in 0...bytes.count where end == bytes.count || bytes[end] == UInt8(ascii: ";") {
                defer { start = end + 1 }
                if first {
                    first = false
                    continue
                }
                var from = start
                while from < end && bytes[from] == UInt8(ascii: " ") { from += 1 }
                note(UnsafeBufferPointer(rebasing: bytes[from..<end]))
            }
        }

        private mutating func note(_ parameter: UnsafeBufferPointer<UInt8>) {
            func equals(_ text: StaticString) -> Bool {
                parameter.count == text.utf8CodeUnitCount
                    && memcmp(parameter.baseAddress!, text.utf8Start, parameter.count) == 0
            }
            func value(after name: StaticString) -> UnsafeBufferPointer<UInt8>? {
                let count = name.utf8CodeUnitCount
                guard parameter.count >= count, memcmp(parameter.baseAddress!, name.utf8Start, count) == 0 else { return nil }
                return UnsafeBufferPointer(rebasing: parameter[count...])
            }
            guard !parameter.isEmpty else { return }
            if equals("hit") {
                hit = true
            } else if equals("collapsed") {
                collapsed = true
            } else if equals("fwd=stale") || equals("fwd=request") {
                forward = true
                forwardRevalidates = true
            } else if value(after: "fwd=") != nil {
                forward = true
            } else if equals("fwd-status=304") {
                forwardStatus304 = true
            } else if let ttl = value(after: "ttl=") {
                nonPositiveTTL = !ttl.isEmpty && (ttl[0] == UInt8(ascii: "-") || (ttl.count == 1 && ttl[0] == UInt8(ascii: "0")))
            } else if let text = value(after: "detail=") {
                detail = true
                if text.count == 14, memcmp(text.baseAddress!, "stale-if-error", 14) == 0 { staleIfError = true }
            }
        }

        func outcome(status: Int) -> AccessLogCacheOutcome? {
            if collapsed { return .coalesced }
            if hit { return detail || nonPositiveTTL ? .stale : .hit }
            if forward {
                if staleIfError { return .stale }
                if forwardStatus304 && forwardRevalidates { return .revalidated }
                return .miss
            }
            if status >= 400 { return .refused }
            // A `Cache-Status` with neither `hit` nor `fwd`: a variant derived here from a stored source (nothing was
            // forwarded, but the answer was made, not found stored).
            return .miss
        }
    }
}
