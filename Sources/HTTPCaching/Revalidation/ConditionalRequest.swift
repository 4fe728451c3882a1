import MediaCore
/// Conditional requests a cache sends (RFC 9111 §4.3.1) and evaluates for its clients (§4.3.2).
public enum ConditionalRequest {
    /// The precondition fields for validating stored responses (§4.3.1): `If-None-Match` listing the
    /// entity tag of every stored response in `candidates` (de-duplicated, in order) so a 304 can
    /// select any of them (§4.3.3); otherwise `If-Modified-Since` with the `Last-Modified` of
    /// `candidates[validating]`; empty when there is no validator (the caller fetches unconditionally).
    public static func fields(candidates: [StoredResponse], validating index: Int?) -> HTTPFields {
        var tags: [String] = []
        for candidate in candidates {
            if let tag = candidate.parsed.entityTag?.description, !tags.contains(tag) { tags.append(tag) }
        }
        var out = HTTPFields()
        if !tags.isEmpty {
            out.append(.ifNoneMatch, tags.joined(separator: ", "))
        } else if let index, let lastModified = candidates[index].parsed.lastModifiedText,
                  candidates[index].parsed.lastModified != nil {
            out.append(.ifModifiedSince, lastModified)
        }
        return out
    }

    /// The one stored response a conditional request the cache generated asks about, or `nil` when it asks
    /// about several or none: the only candidate whose strong or weak entity tag is listed in its
    /// `If-None-Match`, or (without `If-None-Match`) the only candidate whose `Last-Modified` is its
    /// `If-Modified-Since`. A `304` without validators answering it refers to that response
    /// (``NotModified/select(_:for:validating:)``; RFC 9111 §4.3.4, RFC 9110 §13.1).
    public static func validated(candidates: [StoredResponse], by conditional: HTTPFields) -> Int? {
        let asked: [Int]
        if let inm = conditional[.ifNoneMatch] {
            let tags = EntityTag.list(inm)
            asked = candidates.indices.filter { index in
                guard let tag = candidates[index].parsed.entityTag else { return false }
                return tags.contains { $0.weakMatches(tag) }
            }
        } else if let ims = conditional.values(for: .ifModifiedSince).first {
            asked = candidates.indices.filter { candidates[$0].parsed.lastModifiedText == ims }
        } else {
            asked = []
        }
        return asked.count == 1 ? asked[0] : nil
    }

    /// Whether a client's conditional GET/HEAD is answered `304 Not Modified` from `stored`
    /// (§4.3.2, RFC 9110 §13.1.2–13.1.3): `If-None-Match` (weak comparison, `*` matches any) takes
    /// precedence; otherwise `If-Modified-Since` holds when the stored `Last-Modified` (else `Date`)
    /// is not after it. An invalid `If-Modified-Since` is ignored.
    public static func isNotModified(requestFields: HTTPFields, stored: StoredResponse) -> Bool {
        if let inm = requestFields[.ifNoneMatch] {
            if HTTPFieldList.trimOWS(inm[...]) == "*" { return true }
            guard let tag = stored.parsed.entityTag else { return false }
            return EntityTag.list(inm).contains { $0.weakMatches(tag) }
        }
        guard let imsText = requestFields.values(for: .ifModifiedSince).first, let ims = HTTPDate.parse(imsText),
              let modified = stored.parsed.lastModified ?? stored.parsed.date
        else { return false }
        return modified <= ims
    }
}
