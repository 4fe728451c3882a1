/// One routing entry: requests under ``mount`` go to ``originBase`` and are handled by ``tier``.
public struct Route: Sendable, Hashable {
    /// The route name (audit records, `purge --route`).
    public let name: String
    /// The path prefix, starting and ending with `/`, e.g. `/catalog/`.
    public let mount: String
    /// The origin base URL, `http://` or `https://`, with a host, ending with `/`, no query.
    public let originBase: String
    /// The tier name (`public`, `avatar`, `private`, `no-store`, or a custom tier).
    public let tier: String

    public init(name: String, mount: String, originBase: String, tier: String) {
        self.name = name
        self.mount = mount
        self.originBase = originBase
        self.tier = tier
    }
}

/// The outcome of ``Router/match(_:)``.
public struct RouteMatch: Sendable, Hashable {
    /// The route whose mount was the longest prefix.
    public let route: Route
    /// The decoded path segments after the mount (a trailing slash gives a last empty segment).
    public let remainder: [String]
    /// The raw query, still encoded, or `nil`.
    public let query: String?
    /// ``Route/originBase`` + the remainder re-encoded + `?query`. The host is always the route's.
    public let upstreamURL: String
}
