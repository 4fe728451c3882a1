import MediaCore
/// Freshness lifetime (RFC 9111 §4.2.1, §4.2.2) and age (§4.2.3) of a stored response.
public enum Freshness {
    /// Tunables of the heuristic freshness lifetime (§4.2.2).
    public struct Configuration: Sendable, Hashable {
        /// Percent of `Date − Last-Modified` used as heuristic lifetime; values outside 0…100 are
        /// clamped to that range. Default: 10.
        public var heuristicPercent: Int64
        /// Upper bound of a heuristic lifetime, in seconds; `nil` = none. Default: `nil`
        /// (tiers cap lifetimes themselves).
        public var maximumHeuristicLifetime: Int64?
        /// The lifetime, seconds, of a `200` or `203` without explicit freshness (a tier's `defaultTTL`), used
        /// before the heuristic; `nil` = none. Default: `nil`.
        public var defaultLifetime: Int64?
        /// Whether a response without explicit freshness (and without ``defaultLifetime``) gets the §4.2.2
        /// heuristic; `false` gives it a lifetime of 0 (a tier's `"heuristic": false`). Default: `true`.
        public var usesHeuristic: Bool

        public init(heuristicPercent: Int64 = 10, maximumHeuristicLifetime: Int64? = nil, defaultLifetime: Int64? = nil,
                    usesHeuristic: Bool = true) {
            self.heuristicPercent = heuristicPercent
            self.maximumHeuristicLifetime = maximumHeuristicLifetime
            self.defaultLifetime = defaultLifetime
            self.usesHeuristic = usesHeuristic
        }
    }

    /// Where a freshness lifetime came from.
    public enum Source: String, Sendable, Hashable {
        /// `s-maxage` (shared caches only).
        case sharedMaxAge = "s-maxage"
        /// `max-age`.
        case maxAge = "max-age"
        /// `Expires − Date`, or an invalid `Expires` (lifetime 0, §5.3).
        case expires = "expires"
        /// The configured lifetime of a response without explicit freshness (``Configuration/defaultLifetime``).
        case defaultLifetime = "default-ttl"
        /// 10 % of `Date − Last-Modified` (§4.2.2).
        case heuristic = "heuristic"
        /// No explicit or heuristic information: lifetime 0.
        case none = "none"
    }

    /// Statuses that are heuristically cacheable (RFC 9110 §15.1): 200 203 204 206 300 301 308 404 405 410 414 501.
    public static let heuristicallyCacheableStatuses: Set<HTTPStatus> = [200, 203, 204, 206, 300, 301, 308, 404, 405, 410, 414, 501]

    /// The freshness lifetime in seconds (`0 ... 2147483648`) and its source (§4.2.1): for a shared
    /// cache `s-maxage`, then `max-age`, then `Expires − Date` (an invalid `Expires` such as `0` means
    /// already expired, §5.3; a missing `Date` uses `responseTime`; negative results are 0), then a
    /// for a `200` or `203` the configured ``Configuration/defaultLifetime``, then (unless
    /// ``Configuration/usesHeuristic`` is off) a heuristic for heuristically cacheable statuses without explicit
    /// freshness: `heuristicPercent` of `Date − Last-Modified` when `Last-Modified` is valid and not after `Date`
    /// (§4.2.2, which leaves the choice of a heuristic to the cache).
    public static func lifetime(
        status: HTTPStatus, fields: HTTPFields, cacheControl: CacheControl, responseTime: EpochSeconds,
        role: CacheRole, configuration: Configuration = Configuration()
    ) -> (seconds: Int64, source: Source) {
        lifetime(status: status, cacheControl: cacheControl,
                 date: fields.values(for: .date).first.flatMap { HTTPDate.parse($0) },
                 expires: ExpiresValue(fields),
                 lastModified: fields.values(for: .lastModified).first.flatMap { HTTPDate.parse($0) },
                 responseTime: responseTime, role: role, configuration: configuration)
    }

    /// The same as ``lifetime(status:fields:cacheControl:responseTime:role:configuration:)`` from
    /// already parsed values (`date`/`lastModified` `nil` when absent or invalid).
    public static func lifetime(
        status: HTTPStatus, cacheControl: CacheControl, date: EpochSeconds?, expires: ExpiresValue,
        lastModified: EpochSeconds?, responseTime: EpochSeconds, role: CacheRole,
        configuration: Configuration = Configuration()
    ) -> (seconds: Int64, source: Source) {
        lifetime(status: status, sharedMaxAge: cacheControl.sharedMaxAge, maxAge: cacheControl.maxAge, date: date,
                 expires: expires, lastModified: lastModified, responseTime: responseTime, role: role,
                 configuration: configuration)
    }

    static func lifetime(
        status: HTTPStatus, sharedMaxAge: Int64?, maxAge: Int64?, date: EpochSeconds?, expires: ExpiresValue,
        lastModified: EpochSeconds?, responseTime: EpochSeconds, role: CacheRole, configuration: Configuration
    ) -> (seconds: Int64, source: Source) {
        if role == .shared, let sharedMaxAge { return (sharedMaxAge, .sharedMaxAge) }
        if let maxAge { return (maxAge, .maxAge) }
        let date = date ?? responseTime
        switch expires {
        case .invalid: return (0, .expires)
        case .date(let expires): return (expires.saturatingSubtract(date).clampedDeltaSeconds, .expires)
        case .absent: break
        }
        if let lifetime = configuration.defaultLifetime, status == .ok || status == 203 {
            return (lifetime.clampedDeltaSeconds, .defaultLifetime)
        }
        guard configuration.usesHeuristic, heuristicallyCacheableStatuses.contains(status), let lastModified,
              lastModified <= date
        else { return (0, .none) }
        let percent = min(max(configuration.heuristicPercent, 0), 100)
        var heuristic = date.saturatingSubtract(lastModified).clampedDeltaSeconds * percent / 100
        if let cap = configuration.maximumHeuristicLifetime { heuristic = min(heuristic, cap) }
        return (heuristic.clampedDeltaSeconds, .heuristic)
    }

    /// Whether the response carries explicit freshness information for `role` (§4.2.1): `max-age`,
    /// `Expires` (even invalid; not when `ignoresExpires`: directives from a targeted field, RFC 9213), or
    /// `s-maxage` in a shared cache.
    public static func hasExplicitLifetime(fields: HTTPFields, cacheControl: CacheControl, role: CacheRole,
                                           ignoresExpires: Bool = false) -> Bool {
        cacheControl.maxAge != nil || (role == .shared && cacheControl.sharedMaxAge != nil)
            || (!ignoresExpires && fields.contains(.expires))
    }
}
