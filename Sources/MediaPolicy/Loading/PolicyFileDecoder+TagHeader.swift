import MediaCore

extension PolicyFileDecoder {
    /// `tagHeader` (a tier): the response field the origin names its cache tags in (`"Surrogate-Key"`), not one that
    /// HTTP framing, caching or the answer's representation owns.
    mutating func tagHeader(_ value: JSONValue, at path: String) -> String? {
        fieldName(value, at: path, reserved: Self.reservedResponseFieldNames,
                  allowed: "a response field name (RFC 9110 token, at most 64 characters) such as \"Surrogate-Key\" or \"Cache-Tag\", not a field HTTP or the cache owns")
    }

    /// Response fields a `tagHeader` may not name (lower case): they frame, validate, describe or govern the answer.
    static let reservedResponseFieldNames: Set<String> = [
        "age", "cache-control", "cache-status", "cdn-cache-control", "connection", "content-encoding", "content-length",
        "content-range", "content-type", "date", "etag", "expires", "keep-alive", "last-modified", "location", "pragma",
        "set-cookie", "trailer", "transfer-encoding", "upgrade", "vary", "www-authenticate",
    ]
}
