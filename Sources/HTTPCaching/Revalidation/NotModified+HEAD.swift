import MediaCore
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
    /// When `headStatus` is 200, every `ETag` and `Last-Modified` the HEAD response carries equals the stored
    /// response's (a validator the stored response lacks counts as different), and `Content-Length`, where both
    /// carry it, is equal, the stored header fields are
    /// updated as for a 304 (§3.2, ``update(_:with:requestTime:responseTime:role:)``); otherwise the
    /// stored response is to be treated as stale.
    public static func freshenWithHEAD(
        _ stored: StoredResponse, headStatus: HTTPStatus, headFields: HTTPFields,
        requestTime: EpochSeconds, responseTime: EpochSeconds, role: CacheRole
    ) -> HEADFreshening {
        guard headStatus == 200 else { return .markStale }
        // A validator the HEAD response carries must be the stored one: a new `ETag` or `Last-Modified` on a stored
        // response without one describes another representation (merging it would validate the old body).
        for name: HTTPFieldName in [.eTag, .lastModified] {
            if let theirs = headFields.values(for: name).first, stored.fields.values(for: name).first != theirs {
                return .markStale
            }
        }
        if let mine = stored.fields.values(for: .contentLength).first,
           let theirs = headFields.values(for: .contentLength).first, mine != theirs {
            return .markStale
        }
        return .updated(update(stored, with: headFields, requestTime: requestTime, responseTime: responseTime, role: role))
    }
}
