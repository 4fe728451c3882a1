import MediaPolicy

/// The outcome of ``Router/match(_:)``.
public struct RouteMatch: Sendable, Hashable {
    /// The route whose mount was the longest prefix.
    public let route: MediaPolicy.Route
    /// The decoded path segments after the mount (a trailing slash gives a last empty segment).
    public let remainder: [String]
    /// The raw query, still encoded, or `nil`.
    public let query: String?
    /// ``MediaPolicy/Route/origin`` + the remainder re-encoded + `?query`. The host is always the route's.
    public let upstreamURL: String
}
