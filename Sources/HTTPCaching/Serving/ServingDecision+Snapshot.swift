import MediaCore

extension ServingDecision {
    /// The scalars of the selected stored response that a decision reads, taken once so the
    /// decision never copies a `StoredResponse`.
    struct Snapshot: Sendable {
        var lifetime: Int64
        var ageValue: Int64
        var dateValue: EpochSeconds
        var requestTime: EpochSeconds
        var responseTime: EpochSeconds
        var noCache: Bool
        /// `must-revalidate`, or in a shared cache `proxy-revalidate` or `s-maxage` (§4.2.4), or a 5xx
        /// status: a stale server error is never reused without validation (not by `max-stale`,
        /// `stale-while-revalidate` or `stale-if-error`).
        var forbidsStale: Bool
        var staleWhileRevalidate: Int64?
        var staleIfError: Int64?
        /// The cache's cap on the freshness, as a current age (``ServingDecision/init(request:candidates:role:configuration:digest:lifetimeCaps:)``).
        var cap: Int64?

        init(_ stored: UnsafePointer<StoredResponse>, role: CacheRole, configuration: Freshness.Configuration, cap: Int64?) {
            self.cap = cap
            requestTime = stored.pointee.requestTime
            responseTime = stored.pointee.responseTime
            ageValue = stored.pointee.parsed.age ?? 0
            dateValue = stored.pointee.parsed.date ?? responseTime
            lifetime = Freshness.lifetime(
                status: stored.pointee.status, sharedMaxAge: stored.pointee.parsed.cacheControl.sharedMaxAge,
                maxAge: stored.pointee.parsed.cacheControl.maxAge, date: stored.pointee.parsed.date,
                expires: stored.pointee.parsed.expires, lastModified: stored.pointee.parsed.lastModified,
                responseTime: responseTime, role: role, configuration: configuration).seconds
            noCache = stored.pointee.parsed.cacheControl.noCache
            forbidsStale = stored.pointee.parsed.cacheControl.mustRevalidate || stored.pointee.status >= 500
                || (role == .shared && (stored.pointee.parsed.cacheControl.proxyRevalidate
                    || stored.pointee.parsed.cacheControl.sharedMaxAge != nil))
            staleWhileRevalidate = stored.pointee.parsed.cacheControl.staleWhileRevalidate
            staleIfError = stored.pointee.parsed.cacheControl.staleIfError
        }

        /// The current age at `now` (§4.2.3).
        func currentAge(now: EpochSeconds) -> Int64 {
            Freshness.currentAge(ageValue: ageValue, dateValue: dateValue, requestTime: requestTime,
                                 responseTime: responseTime, now: now)
        }
    }
}
