extension NotModified {
    /// The outcome of ``freshenWithHEAD(_:headStatus:headFields:requestTime:responseTime:role:)``.
    public enum HEADFreshening: Sendable, Hashable {
        /// The HEAD response describes the stored representation: store this updated response.
        case updated(StoredResponse)
        /// The HEAD response describes a different representation (or is not a 200): the stored
        /// response is to be considered stale (§4.3.5 SHOULD); the caller revalidates or refetches.
        case markStale
    }

    /// Freshening a stored GET response with a 200 response to HEAD (RFC 9111 §4.3.5).
    ///
    /// When `headStatus` is 200 and `ETag`, `Last-Modified` and `Content-Length` — each where both
    /// the stored response and the HEAD response carry it — are equal, the stored header fields are
    /// updated as for a 304 (§3.2, ``update(_:with:requestTime:responseTime:role:)``); otherwise the
    /// stored response is to be treated as stale.
    public static func freshenWithHEAD(
        _ stored: StoredResponse, headStatus: Int, headFields: HTTPFields,
        requestTime: EpochSeconds, responseTime: EpochSeconds, role: CacheRole
    ) -> HEADFreshening {
        guard headStatus == 200 else { return .markStale }
        for name in ["etag", "last-modified", "content-length"] {
            if let mine = stored.fields.values(for: name).first, let theirs = headFields.values(for: name).first, mine != theirs {
                return .markStale
            }
        }
        return .updated(update(stored, with: headFields, requestTime: requestTime, responseTime: responseTime, role: role))
    }
}
