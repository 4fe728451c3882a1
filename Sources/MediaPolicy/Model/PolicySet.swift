/// A loaded, validated policy: every tier and route of a policy directory, merged.
///
/// Produced by ``PolicyLoader``; invariants hold after loading: every route's tier exists, route
/// names are unique and no mount is a prefix of another.
public struct PolicySet: Sendable, Hashable {
    /// Tiers by name.
    public var tiers: [String: Tier]
    /// Routes in load order (files sorted by name, then document order).
    public var routes: [Route]
    /// The policy files read, in load order.
    public var files: [String]

    /// Creates a policy as given, without validation (use ``PolicyLoader`` for files).
    public init(tiers: [String: Tier], routes: [Route], files: [String] = []) {
        self.tiers = tiers
        self.routes = routes
        self.files = files
    }

    /// The tier named `name`, or `nil`.
    public func tier(named name: String) -> Tier? { tiers[name] }

    /// The route named `name`, or `nil`.
    public func route(named name: String) -> Route? { routes.first { $0.name == name } }

    /// The route whose mount is a prefix of `path` (the request path without query), and its tier,
    /// or `nil` (`404`). Mounts never overlap, so at most one matches.
    /// - Complexity: O(routes).
    public func route(forPath path: String) -> (route: Route, tier: Tier)? {
        for route in routes where path.hasPrefix(route.mount) {
            if let tier = tiers[route.tier] { return (route, tier) }
        }
        return nil
    }

    /// The names with `_` some tier forwards (`forwardRequestHeaders`), lower case: the only such names the HTTP
    /// parser lets through (docs/http-server.md).
    public var forwardedUnderscoreNames: Set<String> {
        Set(tiers.values.flatMap(\.forwardRequestHeaders).filter { $0.contains("_") }.map { $0.lowercased() })
    }
}
