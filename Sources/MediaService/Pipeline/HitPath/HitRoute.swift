import MediaPolicy
import Synchronization

/// The admission of a raw request target for a plain, credential-free `GET`/`HEAD`, computed once by
/// the full router (``Router/resolve(_:configuration:)``) and reused by memory hits.
struct HitRoute: Sendable {
    var route: MediaPolicy.Route
    var runtime: TierRuntime
    /// The origin URL, as ``RequestContext/upstreamURL``.
    var upstreamURL: String
    /// Whether the query carries the tier's version parameter.
    var isVersioned: Bool
    /// The RFC 9111 group key without a partition (``CacheKey/group(primary:partition:)``).
    var groupKey: String
    /// Route and tier names, as ``RequestContext/outcome``.
    var outcome: ServiceOutcome
    /// The group's only store key when the variants index held exactly one at ``generation``.
    var storeKey: String?
    /// The variants index generation ``storeKey`` was read at, or -1 before the first read.
    var generation: Int = -1

    /// The request context a plain `GET` to this target is admitted with (`admit` without credentials).
    var context: RequestContext {
        RequestContext(method: "GET", route: route, runtime: runtime, upstreamURL: upstreamURL, isVersioned: isVersioned,
                       clientFields: [:], originFields: [:], hasCredential: false, partition: nil,
                       cachePolicy: .useProtocolCachePolicy, purgeEpoch: 0)
    }
}

/// Raw request target → ``HitRoute``, at most ``capacity`` entries (cleared when full).
final class HitRouteCache: Sendable {
    static let capacity = 4096
    private let table = Mutex<[String: HitRoute]>([:])

    func route(for target: String) -> HitRoute? {
        table.withLock { $0[target] }
    }

    func insert(_ route: HitRoute, for target: String) {
        table.withLock { table in
            if table.count >= Self.capacity && table[target] == nil { table.removeAll(keepingCapacity: true) }
            table[target] = route
        }
    }

    /// Records the group's store key read at `generation` for `target`, unless a later one is kept.
    func remember(storeKey: String?, generation: Int, for target: String) {
        table.withLock { table in
            guard var route = table[target], route.generation < generation else { return }
            route.storeKey = storeKey
            route.generation = generation
            table[target] = route
        }
    }

    /// Forgets every target (tests; routes never change while a service runs).
    func removeAll() {
        table.withLock { $0.removeAll() }
    }

    var count: Int { table.withLock { $0.count } }
}
