import MediaCore

extension PolicyFileDecoder {
    static let targetedFieldsAllowed =
        "an array of at most 8 distinct field names (RFC 9110 tokens) other than Cache-Control, e.g. [\"CDN-Cache-Control\"]"

    /// `targetedCacheControl` (tier or route): field names, in the order a cache consults them (RFC 9213
    /// §2.1); an empty array honours none.
    mutating func targetedFieldNames(_ value: JSONValue, at path: String) -> [String]? {
        fieldNameList(value, at: path, maximum: PolicyFormat.maximumTargetedFields, allowed: Self.targetedFieldsAllowed) {
            name, _ in
            name.lowercased() == "cache-control" ? "Cache-Control is what a targeted field replaces, not a targeted field" : nil
        }
    }
}
