/// The parts of a presented request that a serving decision reads (RFC 9111 §4).
public struct CacheRequest: Sendable, Hashable {
    /// The method, case-sensitive, e.g. `GET`.
    public var method: String
    /// The request header fields.
    public var fields: HTTPFields
    /// The request's `Cache-Control` (§5.2.1).
    public let cacheControl: CacheControl
    /// Whether the request asks for validation: `Cache-Control: no-cache`, or `Pragma: no-cache`
    /// when the request has no `Cache-Control` field at all (§5.4).
    public let requiresValidation: Bool

    public init(method: String, fields: HTTPFields) {
        self.method = method
        self.fields = fields
        cacheControl = CacheControl(fields: fields)
        if cacheControl.noCache {
            requiresValidation = true
        } else if !CacheControl.isPresent(in: fields) {
            requiresValidation = fields.listValues(for: "pragma").contains { $0.lowercased() == "no-cache" }
        } else {
            requiresValidation = false
        }
    }

    /// Whether a stored response may answer this method: GET and HEAD (§4).
    public var isServableFromCache: Bool { method == "GET" || method == "HEAD" }
}
