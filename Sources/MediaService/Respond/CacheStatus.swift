/// Builds `Cache-Status` field values (RFC 9211) for the cache named `mediactl`.
///
/// Examples: `mediactl; hit; ttl=3400`, `mediactl; fwd=uri-miss; stored`,
/// `mediactl; fwd=stale; fwd-status=304; ttl=60`, `mediactl; fwd=uri-miss; detail=no-store`.
public struct CacheStatus: Sendable, Hashable, CustomStringConvertible {
    /// RFC 9211 §2.2 `fwd` values used here.
    public enum Forward: String, Sendable, Hashable {
        /// No stored response for the URI.
        case uriMiss = "uri-miss"
        /// Stored responses exist but none matches the request's `Vary` fields.
        case varyMiss = "vary-miss"
        /// The request asked to skip the cache (`no-cache`, reload).
        case request
        /// A stored response was stale and had to be validated.
        case stale
        /// The stored response may not be reused without validation (`no-cache`, policy cap).
        case method
    }

    /// The cache name. Default: `mediactl`.
    public var cacheName = "mediactl"
    /// Served from storage without contacting the origin.
    public var hit = false
    /// Why the request went forward, or `nil` on a hit.
    public var forward: Forward?
    /// The status the origin answered to the forwarded request.
    public var forwardStatus: Int?
    /// Remaining freshness in seconds (negative when stale).
    public var ttl: Int64?
    /// Whether the answer was stored.
    public var stored = false
    /// Whether this request was collapsed into another's forward request (RFC 9211 §2.5).
    public var collapsed = false
    /// Implementation detail: a storage class, a skip reason, a stale reason.
    public var detail: String?

    public init(hit: Bool = false, forward: Forward? = nil, forwardStatus: Int? = nil, ttl: Int64? = nil,
                stored: Bool = false, detail: String? = nil) {
        self.hit = hit
        self.forward = forward
        self.forwardStatus = forwardStatus
        self.ttl = ttl
        self.stored = stored
        self.detail = detail
    }

    public var description: String {
        // Appended in place (no parts array, no `joined`): built on every forwarded response.
        var out = cacheName
        out.reserveCapacity(96)
        if hit { out += "; hit" }
        if let forward { out += "; fwd="; out += forward.rawValue }
        if let forwardStatus { out += "; fwd-status="; out += String(forwardStatus) }
        if let ttl { out += "; ttl="; out += String(ttl) }
        if stored { out += "; stored" }
        if collapsed { out += "; collapsed" }
        if let detail { out += "; detail="; out += detail }
        return out
    }
}
