import MediaCore
/// Invalidation after unsafe requests (RFC 9111 §4.4).
public enum Invalidation {
    /// Safe methods (RFC 9110 §9.2.1): GET, HEAD, OPTIONS, TRACE.
    public static let safeMethods: Set<HTTPMethod> = [.get, .head, .options, .trace]

    /// The URIs whose stored responses must be invalidated after a response with `status` to a
    /// request with `method` for `target` (§4.4): when the method is unsafe and the status is
    /// non-error (2xx or 3xx): the target URI, then the URIs of `Location` and `Content-Location`
    /// (absolute or relative, resolved against the target) when they have the target's origin.
    /// Empty for safe methods, error statuses, or a target that is not an absolute URI.
    /// URIs are returned in their resolved form (lower-cased scheme, dot-segments removed), without duplicates.
    public static func invalidatedURIs(method: HTTPMethod, status: HTTPStatus, target: String, responseFields: HTTPFields) -> [String] {
        guard !safeMethods.contains(method), (200...399).contains(status),
              let base = URIReference(absolute: target) else { return [] }
        var out = [base.description]
        for name: HTTPFieldName in [.location, .contentLocation] {
            guard let value = responseFields.values(for: name).first,
                  let resolved = base.resolve(String(HTTPFieldList.trimOWS(value[...]))),
                  resolved.origin == base.origin else { continue }
            if !out.contains(resolved.description) { out.append(resolved.description) }
        }
        return out
    }
}
