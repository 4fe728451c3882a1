import HTTPCaching
import MediaCore

/// One client request as the service sees it: what `mediactl serve` parsed off the wire, or what an
/// in-process caller builds.
public struct ServiceRequest: Sendable {
    /// The method, case-sensitive (`GET`, `HEAD`, …).
    public var method: HTTPMethod
    /// The request-target as received, e.g. `/catalog/horse.jpg?w=200`.
    public var target: String
    /// The request header fields, in order.
    public var fields: HTTPFields
    /// The request body (only pass-through routes accept one).
    public var body: [UInt8]
    /// How the cache may answer. Default: ``RequestCachePolicy/useProtocolCachePolicy``.
    public var cachePolicy: RequestCachePolicy
    /// Receives the interim responses (RFC 9110 §15.2: `102`, `103 Early Hints`, other 1xx but 100 and
    /// 101) of the origin exchange this request makes, before ``MediaService/handle(_:)`` returns, to
    /// forward to the client; `nil` (the default) forwards none. Only on generic tiers (conformance mode)
    /// and only for a request that reaches the origin itself (a miss, a validation, a pass-through
    /// method): never for hits, coalesced waiters or background refreshes. May be called on the origin
    /// transport's thread: it must return quickly and never block.
    public var interimResponses: OriginInterimResponse.Handler?
    /// The request's id (``RequestID``), sent to the origin as `X-Request-Id`; `nil` (the default) sends the
    /// client's field as the tier's forwarding rules have it. The HTTP front sets it for every request.
    public var requestID: String? = nil

    public init(method: HTTPMethod = "GET", target: String, fields: HTTPFields = HTTPFields(), body: [UInt8] = [],
                cachePolicy: RequestCachePolicy = .useProtocolCachePolicy,
                interimResponses: OriginInterimResponse.Handler? = nil) {
        self.method = method
        self.target = target
        self.fields = fields
        self.body = body
        self.cachePolicy = cachePolicy
        self.interimResponses = interimResponses
    }
}

/// Request cache policies in Foundation's `URLRequest.CachePolicy` vocabulary, for in-process callers.
/// Over HTTP the same intents come from the request's `Cache-Control` (RFC 9111 §5.2.1).
public enum RequestCachePolicy: String, Sendable, Hashable, CaseIterable {
    /// RFC 9111 as the request's own `Cache-Control` says.
    case useProtocolCachePolicy
    /// Any stored response, however stale; the origin only when nothing is stored
    /// (as `Cache-Control: max-stale`).
    case returnCacheDataElseLoad
    /// Any stored response, never the origin: 504 when nothing is stored
    /// (as `Cache-Control: max-stale, only-if-cached`).
    case returnCacheDataDontLoad
    /// Ignore what is stored and fetch; the answer may still be stored (as an end-to-end reload).
    case reloadIgnoringLocalCacheData

    /// The request directives this policy adds, or `nil` for none.
    var addedCacheControl: String? {
        switch self {
        case .useProtocolCachePolicy, .reloadIgnoringLocalCacheData: return nil
        case .returnCacheDataElseLoad: return "max-stale"
        case .returnCacheDataDontLoad: return "max-stale, only-if-cached"
        }
    }
}
