import MediaCore

/// One request to an origin, after routing and header hygiene.
public struct OriginRequest: Sendable, Hashable {
    /// The method, upper case. Default: `GET`.
    public var method: HTTPMethod
    /// The absolute `http(s)` URL (``RouteMatch/upstreamURL``).
    public var url: String
    /// The fields to send (already filtered by ``HeaderHygiene``).
    public var fields: HTTPFields
    /// Total time allowed, in seconds, including retries. Default: 15 (the tier's `originTimeout`).
    public var timeout: Double
    /// Maximum body bytes accepted; receiving stops past it. Default: 10,485,760 (10 MiB).
    public var maxBodyBytes: Int
    /// The request body (pass-through routes only). Default: empty.
    public var body: [UInt8]
    /// Whether connection failures may be retried (only `GET`/`HEAD` ever are). Default: `true`;
    /// conformance-mode routes pass `false` ("nothing is retried").
    public var allowsRetry: Bool
    /// Whether a content coding the origin applies anyway (`Content-Encoding: gzip` although
    /// asked for `identity`: pre-coded objects in a store, some CDNs) is decoded, so the body is
    /// the representation's own bytes and `Content-Encoding` is removed from the fields.
    /// ``maxBodyBytes`` then bounds the decoded bytes (a decompression bomb stops there); a
    /// coding the transport cannot decode fails with `invalid-response`. Nothing is added to the
    /// request's `Accept-Encoding`. Default: `false` (the body arrives as the origin sent it);
    /// the pipeline sets it for image tiers.
    public var decodesContentCoding: Bool

    public init(
        method: HTTPMethod = "GET", url: String, fields: HTTPFields = HTTPFields(), timeout: Double = 15,
        maxBodyBytes: Int = 10_485_760, body: [UInt8] = [], allowsRetry: Bool = true,
        decodesContentCoding: Bool = false
    ) {
        self.method = method
        self.url = url
        self.fields = fields
        self.timeout = timeout
        self.maxBodyBytes = maxBodyBytes
        self.body = body
        self.allowsRetry = allowsRetry
        self.decodesContentCoding = decodesContentCoding
    }

    /// Whether the request may be retried after a connection failure (RFC 9110 §9.2.2):
    /// `GET` and `HEAD` only, and only when ``allowsRetry``.
    public var isRetryable: Bool { allowsRetry && (method.isRead) }
}

/// An origin's answer, redirects included (they are never followed).
public struct OriginResponse: Sendable, Hashable {
    /// The status code, e.g. 200, 304, 302.
    public var status: HTTPStatus
    /// The response fields.
    public var fields: HTTPFields
    /// The body (empty for `HEAD`, 204 and 304).
    public var body: [UInt8]

    public init(status: HTTPStatus, fields: HTTPFields = HTTPFields(), body: [UInt8] = []) {
        self.status = status
        self.fields = fields
        self.body = body
    }
}

/// Fetches from an origin. Implementations never follow redirects, never cache, never store
/// cookies, and enforce ``OriginRequest/maxBodyBytes`` and ``OriginRequest/timeout``.
public protocol OriginFetching: Sendable {
    /// Performs `request`.
    /// - Returns: the origin's response, any status (3xx returned as-is).
    /// - Throws: ``OriginError`` (`timeout`, `connection-failed`, `too-large`,
    ///   `invalid-response`, `invalid-request`), or `CancellationError` when the task is cancelled.
    func fetch(_ request: OriginRequest) async throws -> OriginResponse

    /// Performs `request`, handing each interim (1xx) response the origin sends before its final
    /// response to `interim` (RFC 9110 §15.2), in order, before this returns. Interim responses are
    /// never part of the returned response (neither its status nor its fields). `interim` may be called
    /// on the transport's own thread: it must return quickly and never block.
    /// Default: calls ``fetch(_:)`` and reports no interim response (test doubles);
    /// `CurlOriginFetcher` (MediaCurl) reports them.
    /// - Throws: as ``fetch(_:)``.
    func fetch(_ request: OriginRequest, interim: OriginInterimResponse.Handler?) async throws -> OriginResponse
}

extension OriginFetching {
    public func fetch(_ request: OriginRequest, interim: OriginInterimResponse.Handler?) async throws -> OriginResponse {
        try await fetch(request)
    }
}
