import MediaCore

extension PolicyFileDecoder {
    static let forwardedFieldsAllowed =
        "an array of at most 16 distinct field names (RFC 9110 tokens) other than Authorization, Cookie, Host, "
        + "Content-Length, Expect and hop-by-hop fields, e.g. [\"Accept-Language\"]"

    /// Names a tier may not forward, lower case, with the reason given in the problem: framing and hop-by-hop fields
    /// (RFC 9110 §7.6.1) belong to one connection; the credential follows `credentials`; cookies never reach an origin.
    static let unforwardableFields: [String: String] = [
        "authorization": "Authorization follows the tier's credentials (forward or bearer-required), not forwardRequestHeaders",
        "cookie": "a cookie is one user's and never reaches an origin",
        "host": "Host names the origin and is set from the route",
        "content-length": "Content-Length frames one message", "transfer-encoding": "Transfer-Encoding frames one message",
        "expect": "the service answers Expect itself",
        "connection": "Connection is hop-by-hop (RFC 9110 §7.6.1)", "keep-alive": "Keep-Alive is hop-by-hop (RFC 9110 §7.6.1)",
        "proxy-connection": "Proxy-Connection is hop-by-hop (RFC 9110 §7.6.1)", "te": "TE is hop-by-hop (RFC 9110 §7.6.1)",
        "trailer": "Trailer is hop-by-hop (RFC 9110 §7.6.1)", "upgrade": "Upgrade is hop-by-hop (RFC 9110 §7.6.1)",
    ]

    /// `forwardRequestHeaders` (tier): client fields an image tier passes to its origin, in policy order.
    mutating func forwardedFieldNames(_ value: JSONValue, at path: String) -> [String]? {
        fieldNameList(value, at: path, maximum: PolicyFormat.maximumForwardedFields, allowed: Self.forwardedFieldsAllowed) {
            name, element in
            let lower = name.lowercased()
            guard let reason = Self.unforwardableFields[lower] ?? (lower.hasPrefix("proxy-") ? "Proxy-* fields are hop-by-hop" : nil)
            else { return nil }
            return "\(element.rendered) cannot be forwarded: \(reason)"
        }
    }
}
