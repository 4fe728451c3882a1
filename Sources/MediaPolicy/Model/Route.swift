/// One route of a policy (`routes[i]`): requests under ``mount`` go to ``origin`` under ``tier``.
public struct Route: Sendable, Hashable {
    /// Which request methods a route serves (policy key `methods`).
    public enum Methods: String, Sendable, Hashable, CaseIterable {
        /// `GET` and `HEAD`; other methods are answered `405`. The default.
        case read = "read"
        /// Every method; unsafe ones pass through and invalidate (RFC 9111 §4.4).
        case all = "all"
    }

    /// Unique route name, e.g. `catalog` (audit `route`, `mediactl purge --route`).
    public var name: String
    /// Path prefix, starting and ending with `/`, e.g. `/catalog/`.
    public var mount: String
    /// Origin base URL, `http` or `https`, path ending with `/`, no query, fragment or user info.
    public var origin: String
    /// Name of the route's tier (a key of ``PolicySet/tiers``).
    public var tier: String
    /// Methods served. Default: `read`.
    public var methods: Methods
    /// The targeted cache-control fields honoured on this route (RFC 9213), overriding the tier's
    /// ``Tier/targetedFields``; `nil`: the tier's. Default: `nil`.
    public var targetedCacheControl: [String]?
    /// How mediactl authenticates to the origin on signed requests, or `nil`: no `Authorization`. Default: `nil`.
    public var originAuthorization: OriginAuthorization?
    /// The field that carries a signed request's subject to the origin (e.g. `Mediactl-Subject`), or `nil`:
    /// none. The same field from a client is always removed. Default: `nil`.
    public var subjectHeader: String?
    /// Cross-origin reads on this route, overriding the tier's ``Tier/cors``, or `nil`: the tier's. Default: `nil`.
    public var cors: CORSPolicy?
    /// The policy file that defined the route (as given to the loader), for messages.
    public var file: String

    /// Creates a route as given, without validation.
    public init(name: String, mount: String, origin: String, tier: String, methods: Methods = .read,
                targetedCacheControl: [String]? = nil, originAuthorization: OriginAuthorization? = nil,
                subjectHeader: String? = nil, cors: CORSPolicy? = nil, file: String = "") {
        self.originAuthorization = originAuthorization
        self.subjectHeader = subjectHeader
        self.cors = cors
        self.name = name
        self.mount = mount
        self.origin = origin
        self.tier = tier
        self.methods = methods
        self.targetedCacheControl = targetedCacheControl
        self.file = file
    }

    /// The origin URL for a request path under ``mount``, or `nil` when `path` is not under it.
    ///
    /// `/catalog/a/b.jpg` on mount `/catalog/` with origin `http://o/catalog/` →
    /// `http://o/catalog/a/b.jpg`. The query, if any, is the caller's to append.
    public func originURL(forPath path: String) -> String? {
        guard path.hasPrefix(mount) else { return nil }
        return origin + path.dropFirst(mount.count)
    }
}
