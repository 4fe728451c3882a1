/// Cross-origin reads answered by mediactl itself (tier or route key `cors`; Fetch standard, "CORS protocol").
///
/// For a request whose `Origin` is listed: `Access-Control-Allow-Origin` with that origin and
/// `Timing-Allow-Origin`; every answer of the route carries `Vary: Origin`. A preflight `OPTIONS` from a listed
/// origin is answered `204` without reaching the origin. The origin never sees `Origin`, its own CORS fields are
/// dropped, and `Origin` leaves a stored response's `Vary`.
public struct CORSPolicy: Sendable, Hashable {
    /// Origins allowed to read, each `scheme://host[:port]` exactly as browsers send `Origin`
    /// (e.g. `https://app.example.com`); compared byte for byte.
    public var allowOrigins: [String]
    /// `Access-Control-Max-Age` of a preflight answer, seconds, 0–86,400. Default: 600.
    public var maxAge: Int
    /// Whether a preflight allows the `Authorization` request header (a `fetch()` with a bearer token).
    /// Default: `false`.
    public var allowAuthorization: Bool

    /// Default `maxAge`: 600 seconds.
    public static let defaultMaxAge = 600
    /// Largest `maxAge`: 86,400 seconds.
    public static let maximumMaxAge = 86_400

    public init(allowOrigins: [String], maxAge: Int = CORSPolicy.defaultMaxAge, allowAuthorization: Bool = false) {
        self.allowOrigins = allowOrigins
        self.maxAge = maxAge
        self.allowAuthorization = allowAuthorization
    }

    /// Whether `origin` (an `Origin` field value) is listed.
    public func allows(_ origin: String) -> Bool { allowOrigins.contains(origin) }
}
