import MediaPolicy

/// The admission of a raw request target for a plain, credential-free `GET`/`HEAD`, computed once by
/// the full router (``Router/resolve(_:configuration:)``) and reused by memory hits. Immutable.
final class HitRoute: Sendable {
    let route: MediaPolicy.Route
    let runtime: TierRuntime
    /// The origin URL, as ``RequestContext/upstreamURL``.
    let upstreamURL: String
    /// Whether the query carries the tier's version parameter.
    let isVersioned: Bool
    /// The RFC 9111 group key without a partition (``CacheKey/group(primary:partition:)``).
    let groupKey: String
    /// Route and tier names, as ``RequestContext/outcome`` gives them.
    let routeName: String
    let tierName: String
    /// What a prepared answer for this target depends on besides its entry.
    let preparedKey: PreparedHit.Key

    init(route: MediaPolicy.Route, runtime: TierRuntime, upstreamURL: String, isVersioned: Bool) {
        self.route = route
        self.runtime = runtime
        self.upstreamURL = upstreamURL
        self.isVersioned = isVersioned
        groupKey = RequestContext.groupKey(runtime, upstreamURL, nil)
        routeName = route.name
        tierName = runtime.tier.name
        preparedKey = PreparedHit.Key(tier: runtime.tier.name, isVersioned: isVersioned)
    }

    /// The request context a plain `GET` to this target is admitted with (`admit` without credentials).
    var context: RequestContext {
        RequestContext(method: "GET", route: route, runtime: runtime, upstreamURL: upstreamURL, isVersioned: isVersioned,
                       clientFields: [:], originFields: [:], hasCredential: false, partition: nil,
                       cachePolicy: .useProtocolCachePolicy, purgeEpoch: 0)
    }
}
