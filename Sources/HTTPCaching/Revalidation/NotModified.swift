import MediaCore
/// Handling a 304 (Not Modified) answer to a validation request (RFC 9111 §4.3.3, §4.3.4).
public enum NotModified {
    /// The indices of the stored responses a 304 with `fields` updates (§4.3.4):
    /// - a strong `ETag`: every stored response with that strong entity tag;
    /// - a weak `ETag`: the most recent stored response whose tag matches weakly;
    /// - no `ETag` but `Last-Modified`: the most recent stored response with that `Last-Modified`;
    /// - no validator at all: the stored response the conditional request was generated for, when the cache
    ///   asked about exactly one (`validating`; RFC 9110 §13.1: a 304 answers that request, so it refers to
    ///   that response); otherwise the only stored response, when there is exactly one and it has none;
    /// - otherwise none (`ETag: "zz"` → `[]`, and the caller refetches unconditionally).
    /// - Parameter validating: the index of the one stored response whose validators the conditional request
    ///   carried, or `nil` when it carried several (an `If-None-Match` list) or none.
    public static func select(_ candidates: [StoredResponse], for fields: HTTPFields, validating: Int? = nil) -> [Int] {
        if let etagLine = fields.values(for: .eTag).first {
            guard let tag = EntityTag(etagLine) else { return [] }
            if !tag.isWeak {
                return candidates.indices.filter { candidates[$0].parsed.entityTag.map(tag.strongMatches) ?? false }
            }
            return mostRecent(candidates, candidates.indices.filter { candidates[$0].parsed.entityTag.map(tag.weakMatches) ?? false })
        }
        if let modifiedLine = fields.values(for: .lastModified).first {
            guard let modified = HTTPDate.parse(modifiedLine) else { return [] }
            return mostRecent(candidates, candidates.indices.filter { candidates[$0].parsed.lastModified == modified })
        }
        if let validating, candidates.indices.contains(validating) { return [validating] }
        if candidates.count == 1, candidates[0].parsed.entityTag == nil, candidates[0].parsed.lastModified == nil {
            return [0]
        }
        return []
    }

    /// `stored` updated with a 304's header fields (§3.2, §4.3.4): each field of `fields` replaces the
    /// stored lines of that name, except fields never stored (§3.1, ``StoredFields``) and those the
    /// stored body depends on (`Content-Length`, `Content-Type`, `Content-Encoding`, `Content-Range`). The request and response times become those of the 304, so freshness restarts.
    /// - Parameters:
    ///   - requestTime: when the conditional request was sent.
    ///   - responseTime: when the 304 arrived.
    public static func update(
        _ stored: StoredResponse, with fields: HTTPFields, requestTime: EpochSeconds, responseTime: EpochSeconds, role: CacheRole
    ) -> StoredResponse {
        let incoming = StoredFields.filter(fields, role: role, targets: stored.targets)
        var merged = stored.fields
        var done: Set<String> = []
        for field in incoming {
            let name = field.name.lowercased()
            guard !StoredFields.bodyDependent.contains(name), done.insert(name).inserted else { continue }
            // Replace in place (the first stored line keeps its position), then add further lines.
            let values = incoming.values(for: field.fieldName)
            merged.set(field.fieldName, values[0])
            for value in values.dropFirst() { merged.append(field.fieldName, value) }
        }
        var updated = stored
        updated.fields = merged
        updated.requestTime = requestTime
        updated.responseTime = responseTime
        return updated
    }

    private static func mostRecent(_ candidates: [StoredResponse], _ indices: [Int]) -> [Int] {
        guard var best = indices.first else { return [] }
        for index in indices.dropFirst() {
            let a = candidates[best], b = candidates[index]
            if (b.parsed.date ?? b.responseTime, b.responseTime) >= (a.parsed.date ?? a.responseTime, a.responseTime) { best = index }
        }
        return [best]
    }
}
