import MediaCore

extension PolicyFileDecoder {
    /// `tagHeader` (a tier): the response field the origin names its cache tags in (`"Surrogate-Key"`), not one that
    /// HTTP framing, caching or the answer's representation owns.
    mutating func tagHeader(_ value: JSONValue, at path: String) -> String? {
        fieldName(value, at: path, reserved: Self.reservedResponseFieldNames,
                  allowed: "a response field name (RFC 9110 token, at most 64 characters) such as \"Surrogate-Key\" or \"Cache-Tag\", not a field HTTP or the cache owns")
    }

    /// Response fields a `tagHeader` may not name (lower case): they frame, validate, describe or govern the answer,
    /// or mediactl writes them itself (`X-Request-Id`, CORS, `Referrer-Policy`, …), so a tag field of that name would
    /// only work by the order in which the origin's fields are dropped and mediactl's are written.
    static let reservedResponseFieldNames: Set<String> = [
        "accept-ranges", "access-control-allow-credentials", "access-control-allow-headers", "access-control-allow-methods",
        "access-control-allow-origin", "access-control-expose-headers", "access-control-max-age", "age", "allow",
        "cache-control", "cache-status", "cdn-cache-control", "connection", "content-encoding", "content-length",
        "content-range", "content-type", "date", "etag", "expires", "keep-alive", "last-modified", "location",
        "mediactl-animation", "mediactl-image-height", "mediactl-image-width", "pragma", "referrer-policy", "retry-after", "set-cookie", "timing-allow-origin", "trailer", "transfer-encoding", "upgrade",
        "vary", "www-authenticate", "x-content-type-options", "x-request-id",
    ]
}
