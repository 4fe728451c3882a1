import MediaCore
/// The parts of a presented request that a serving decision reads (RFC 9111 §4).
public struct CacheRequest: Sendable, Hashable {
    /// The method, case-sensitive, e.g. `GET`.
    public let method: HTTPMethod
    /// The request header fields.
    public let fields: HTTPFields
    /// The request's `Cache-Control` (§5.2.1).
    public let cacheControl: CacheControl
    /// Whether the request asks for validation: `Cache-Control: no-cache`, or `Pragma: no-cache`
    /// when the request has no `Cache-Control` field at all (§5.4).
    public let requiresValidation: Bool

    public init(method: HTTPMethod, fields: HTTPFields) {
        self.method = method
        self.fields = fields
        cacheControl = CacheControl(fields: fields)
        if cacheControl.noCache {
            requiresValidation = true
        } else if !CacheControl.isPresent(in: fields) {
            requiresValidation = fields.listValues(for: .pragma).contains { $0.lowercased() == "no-cache" }
        } else {
            requiresValidation = false
        }
    }

    /// Whether a stored response may answer this method: GET and HEAD (§4).
    public var isServableFromCache: Bool { method.isRead }

    /// The request's caching constraints as plain values (what ``ServingDecision`` keeps).
    public var directives: Directives {
        Directives(isServableFromCache: isServableFromCache, requiresValidation: requiresValidation,
                   maxAge: cacheControl.maxAge, maxStale: cacheControl.maxStale, minFresh: cacheControl.minFresh,
                   onlyIfCached: cacheControl.onlyIfCached, staleIfError: cacheControl.staleIfError)
    }

    /// The request constraints a serving decision reads (§5.2.1), without references.
    public struct Directives: Sendable, Hashable {
        /// GET or HEAD.
        public var isServableFromCache: Bool
        /// `no-cache`, or `Pragma: no-cache` without `Cache-Control` (§5.4).
        public var requiresValidation: Bool
        /// Request `max-age`, seconds.
        public var maxAge: Int64?
        /// Request `max-stale`, seconds (``CacheControl/anyStaleness`` without argument).
        public var maxStale: Int64?
        /// Request `min-fresh`, seconds.
        public var minFresh: Int64?
        /// Request `only-if-cached`.
        public var onlyIfCached: Bool
        /// Request `stale-if-error`, seconds.
        public var staleIfError: Int64?
    }
}
