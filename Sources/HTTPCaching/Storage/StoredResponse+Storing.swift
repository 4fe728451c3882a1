import MediaCore
extension StoredResponse {
    /// The outcome of ``storing(method:requestFields:status:responseFields:role:requestTime:responseTime:digest:)``.
    public enum StoringOutcome: Sendable, Hashable {
        /// Store this response (fields filtered per §3.1, secondary key computed per §4.1).
        case store(StoredResponse)
        /// Do not store, for this reason (§3).
        case skip(StorabilityReason)
    }

    /// One step from an origin answer to what may be stored: evaluates storability (§3, §3.5;
    /// ``Storability/evaluate(method:requestFields:status:responseFields:role:)``), drops the fields never
    /// stored (§3.1; ``StoredFields/filter(_:role:)``) and computes the secondary key of the request
    /// fields nominated by `Vary` (§4.1; sensitive values through `digest`).
    ///
    /// - Parameters:
    ///   - method: the request method (only `GET` is stored).
    ///   - requestFields: the request fields as sent to the origin.
    ///   - status: the origin's final status.
    ///   - responseFields: the origin's header fields as received.
    ///   - role: shared or private cache.
    ///   - requestTime: seconds since the epoch when the request was sent.
    ///   - responseTime: seconds since the epoch when the response arrived.
    ///   - digest: keyed digest for sensitive varying fields (the service passes HMAC-SHA256 hex).
    ///   - targets: the targeted cache-control fields honoured, in order (RFC 9213); default none. When one
    ///     applies, its directives replace `Cache-Control` and `Expires` for storability and freshness.
    public static func storing(
        method: HTTPMethod, requestFields: HTTPFields, status: HTTPStatus, responseFields: HTTPFields, role: CacheRole,
        requestTime: EpochSeconds, responseTime: EpochSeconds, digest: (String) -> String, targets: [String] = []
    ) -> StoringOutcome {
        // The effective directives are parsed once here and reused by storability and (when the filter
        // removed nothing) the stored response's parsed fields.
        let targeted = targets.isEmpty ? nil : TargetedCacheControl.select(responseFields, targets: targets)
        let cacheControl = targeted ?? CacheControl(fields: responseFields)
        let verdict = Storability.evaluate(method: method, requestFields: requestFields, status: status,
                                           responseFields: responseFields, responseCacheControl: cacheControl,
                                           ignoresExpires: targeted != nil, role: role)
        if let reason = verdict.reason { return .skip(reason) }
        guard let key = Vary.secondaryKey(request: requestFields, responseFields: responseFields, digest: digest) else {
            return .skip(.varyStar)
        }
        // The fields kept out of storage: `Cache-Control`'s qualified names and, when it applies, the targeted field's.
        let exclusions = targeted.map { StoredFields.qualifiedNames(responseFields, targets: targets, targeted: $0) } ?? cacheControl
        let (kept, removedAny) = StoredFields.filtered(responseFields, cacheControl: exclusions, role: role)
        let parsed = removedAny ? StoredResponse.Parsed(kept, targets: targets)
            : StoredResponse.Parsed(kept, cacheControl: cacheControl, isTargeted: targeted != nil)
        return .store(StoredResponse(status: status, fields: kept, requestTime: requestTime, responseTime: responseTime,
                                     requestMethod: method, secondaryKey: key, targets: targets, parsed: parsed))
    }

    /// Seconds of freshness left at `now` for `role`: `lifetime − current age`, at least 0
    /// (the `ttl` of `Cache-Status` and of audit records).
    public func remainingFreshness(now: EpochSeconds, role: CacheRole, configuration: Freshness.Configuration = Freshness.Configuration()) -> Int64 {
        max(0, freshnessLifetime(role: role, configuration: configuration) - currentAge(now: now))
    }
}
