import MediaPolicy

/// The policies in force and everything built from them: the router and one ``TierRuntime`` per tier.
/// Immutable; a reload (``MediaService/reload(policies:digest:)``) builds a new one and swaps it in
/// (``HitRouteCache/replace(with:)``), so a request reads one snapshot at admission and finishes under it.
final class PolicySnapshot: Sendable {
    /// The loaded policy set.
    let policies: PolicySet
    /// Hex SHA-256 of the set (``PolicyDigest``), recorded in the audit log's `policy` records.
    let digest: String
    /// Mount prefix → route, built from ``policies``.
    let router: Router
    /// Tier name → its stores, indexes and counters.
    let runtimes: [String: TierRuntime]
    /// The keys and origin tokens the policies name, read when this snapshot was made.
    let secrets: PolicySecrets
    /// Route name → the CORS it answers (the route's `cors`, else its tier's); empty when no route has any,
    /// so answers on other routes pay nothing.
    let cors: [String: CORSPolicy]
    /// Signed targets verified under this snapshot's keys (``SignatureCache``).
    let signatures = SignatureCache()

    init(policies: PolicySet, digest: String, router: Router, runtimes: [String: TierRuntime],
         secrets: PolicySecrets = .none) {
        self.policies = policies
        self.digest = digest
        self.router = router
        self.runtimes = runtimes
        self.secrets = secrets
        var cors: [String: CORSPolicy] = [:]
        for route in policies.routes {
            if let policy = route.cors ?? policies.tiers[route.tier]?.cors { cors[route.name] = policy }
        }
        self.cors = cors
    }

    /// The router for `policies`' routes.
    /// - Throws: ``RoutingError`` (a route the router refuses).
    static func router(for policies: PolicySet) throws(RoutingError) -> Router {
        try Router(routes: policies.routes)
    }

    /// Whether the router match `match` (made by any snapshot's router) is what this snapshot's router
    /// would match: its route is one of this snapshot's, unchanged. O(routes).
    func owns(_ match: RouteMatch) -> Bool {
        router.entries.contains { $0.route == match.route }
    }
}
