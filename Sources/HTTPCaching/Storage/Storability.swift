import MediaCore
/// Whether a response may be stored (RFC 9111 §3, §3.5).
///
/// Design choices (see docs/rfc9111-conformance.md): only responses to `GET` are stored (HEAD
/// responses carry no body, and a HEAD request is served from a stored GET response); 206 is not
/// stored (no range support) and neither is 304 (it only updates, §4.3.4).
public enum Storability {
    /// Statuses whose caching semantics this cache implements (RFC 9110 §15), for `must-understand`:
    /// 200 203 204 300 301 302 303 307 308 404 405 410 414 501.
    public static let understoodStatuses: Set<HTTPStatus> = [200, 203, 204, 300, 301, 302, 303, 307, 308, 404, 405, 410, 414, 501]

    /// The final statuses registered in the IANA HTTP Status Code Registry (RFC 9110 §15 and later RFCs:
    /// 6585, 7538, 7725, 8297, 8470, 4918, 5842, 2774); any other final status is "unrecognised" (§15:
    /// treated like `x00` by clients; a cache stores it only with explicit freshness).
    public static let registeredStatuses: Set<HTTPStatus> = [
        200, 201, 202, 203, 204, 205, 206, 207, 208, 226,
        300, 301, 302, 303, 304, 305, 307, 308,
        400, 401, 402, 403, 404, 405, 406, 407, 408, 409, 410, 411, 412, 413, 414, 415, 416, 417, 421, 422, 423,
        424, 425, 426, 428, 429, 431, 451,
        500, 501, 502, 503, 504, 505, 506, 507, 508, 510, 511,
    ]

    /// Evaluates the rules of §3 in this order and returns the first that forbids storing:
    /// method (`method-not-cacheable`), status (`status-not-storable`), `must-understand` with an
    /// unknown status (`must-understand-unknown-status`), request `no-store` (`request-no-store`),
    /// response `no-store` unless `must-understand` with an understood status (`response-no-store`),
    /// unqualified `private` in a shared cache (`private-in-shared-cache`), `Authorization` in a
    /// shared cache without `public`, `s-maxage` or `must-revalidate` (`authorization-in-shared-cache`),
    /// `Vary: *` (`vary-star`), for a 5xx or unregistered status that is not heuristically cacheable
    /// the need for `Expires`, `max-age` or `s-maxage` (shared cache) (`error-without-explicit-freshness`),
    /// and finally the need for `public`, `private` (private cache), `Expires`, `max-age`, `s-maxage`
    /// (shared cache) or a heuristically cacheable status (`no-freshness-information`).
    ///
    /// - Parameters:
    ///   - method: the request method, case-sensitive (RFC 9110 §9.1).
    ///   - requestFields: the request's fields (for `Cache-Control: no-store` and `Authorization`).
    ///   - status: the response status.
    ///   - responseFields: the response's fields as received.
    ///   - role: the cache role.
    ///   - targets: the targeted cache-control fields honoured, in order (RFC 9213, ``TargetedCacheControl``);
    ///     when one applies, its directives replace `Cache-Control` and `Expires`. Default: none.
    public static func evaluate(
        method: HTTPMethod, requestFields: HTTPFields, status: HTTPStatus, responseFields: HTTPFields, role: CacheRole,
        targets: [String] = []
    ) -> StorabilityVerdict {
        let targeted = targets.isEmpty ? nil : TargetedCacheControl.select(responseFields, targets: targets)
        return evaluate(method: method, requestFields: requestFields, status: status, responseFields: responseFields,
                        responseCacheControl: targeted ?? CacheControl(fields: responseFields),
                        ignoresExpires: targeted != nil, role: role)
    }

    /// The same as ``evaluate(method:requestFields:status:responseFields:role:targets:)`` with the effective
    /// directives already parsed (`ignoresExpires`: they came from a targeted field, so `Expires` does not count).
    public static func evaluate(
        method: HTTPMethod, requestFields: HTTPFields, status: HTTPStatus, responseFields: HTTPFields,
        responseCacheControl cc: CacheControl, ignoresExpires: Bool = false, role: CacheRole
    ) -> StorabilityVerdict {
        guard method == .get else { return StorabilityVerdict(reason: .methodNotCacheable) }
        guard status >= 200, status <= 599, status != 206, status != 304 else {
            return StorabilityVerdict(reason: .statusNotStorable)
        }
        let understood = understoodStatuses.contains(status)
        if cc.mustUnderstand, !understood { return StorabilityVerdict(reason: .mustUnderstandUnknownStatus) }
        if CacheControl(fields: requestFields).noStore { return StorabilityVerdict(reason: .requestNoStore) }
        if cc.noStore, !(cc.mustUnderstand && understood) { return StorabilityVerdict(reason: .responseNoStore) }
        if role == .shared {
            if cc.isPrivate { return StorabilityVerdict(reason: .privateInSharedCache) }
            if requestFields.contains(.authorization), !(cc.isPublic || cc.sharedMaxAge != nil || cc.mustRevalidate) {
                return StorabilityVerdict(reason: .authorizationInSharedCache)
            }
        }
        if Vary.containsStar(responseFields) { return StorabilityVerdict(reason: .varyStar) }
        let explicit = Freshness.hasExplicitLifetime(fields: responseFields, cacheControl: cc, role: role,
                                                     ignoresExpires: ignoresExpires)
        let heuristic = Freshness.heuristicallyCacheableStatuses.contains(status)
        if !heuristic, !explicit, status >= 500 || !registeredStatuses.contains(status) {
            return StorabilityVerdict(reason: .errorWithoutExplicitFreshness)
        }
        let allowed = cc.isPublic || (role == .private && cc.isPrivate) || explicit || heuristic
        return allowed ? .storable : StorabilityVerdict(reason: .noFreshnessInformation)
    }
}
