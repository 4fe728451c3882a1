import MediaPolicy
import MediaService

/// The service's own router for `mediactl warm`'s input check (in a file of its own: here `Route` is
/// ``MediaService/Route``, not `MediaPolicy.Route`).
enum WarmRouter {
    /// The router of `routes` (name, mount, origin base, tier), as ``MediaService/MediaService`` builds it.
    /// - Throws: ``MediaService/RoutingError`` for a route the service would refuse too.
    static func make(_ routes: [(name: String, mount: String, origin: String, tier: String)]) throws(RoutingError) -> Router {
        try Router(routes: routes.map { Route(name: $0.name, mount: $0.mount, origin: $0.origin, tier: $0.tier) })
    }
}
