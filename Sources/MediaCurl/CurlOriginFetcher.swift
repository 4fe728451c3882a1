import HTTPCaching
import MediaOrigin

/// ``MediaService/OriginFetching`` over libcurl's multi interface, driven by one dedicated thread.
///
/// The service's only origin transport (``DefaultOriginFetcher``). Its contract:
/// - No cache, no cookies (no cookie engine is ever enabled).
/// - Redirects are never followed: the 3xx response is returned as-is.
/// - `GET`/`HEAD` (``MediaService/OriginRequest/isRetryable``) are retried on connection failures only (cannot
///   resolve or connect, or the connection closed before any response byte; never timeouts, TLS
///   failures or bad answers), at most ``Configuration/maxRetries`` times, with jittered
///   exponential backoff; a retry whose backoff would end past the fetch's deadline is not made
///   (the connection failure is thrown at once).
/// - The body is received under ``MediaService/OriginRequest/maxBodyBytes``: the transfer is aborted (and its
///   connection closed) as soon as it exceeds the limit, or at the head when `Content-Length`
///   announces more (except for `HEAD`, and a coded body that ``MediaService/OriginRequest/decodesContentCoding``
///   has libcurl decode: the limit counts decoded bytes) → ``MediaService/OriginError/Code/tooLarge``.
/// - ``MediaService/OriginRequest/timeout`` bounds the whole fetch, retries included (`CURLOPT_TIMEOUT_MS` is
///   the time remaining); ``Configuration/idleTimeout`` bounds connecting and any stall.
/// - Cancelling the calling task removes the transfer and throws `CancellationError`.
///
/// Where it differs from Foundation's `URLSession` (the transport before it):
/// - **Content decoding only when asked**: no `Accept-Encoding` is ever added, and the body arrives
///   exactly as the origin sent it, with its `Content-Encoding`, unless
///   ``MediaService/OriginRequest/decodesContentCoding`` is set (then libcurl's decoders run, the limit applies
///   to decoded bytes and `Content-Encoding` is removed). URLSession's libcurl advertised
///   `deflate, gzip, br, zstd` and always decoded behind the caller's back.
/// - No default `Accept: */*` and no `Expect: 100-continue` are sent; only the request's fields,
///   plus `User-Agent` (``Configuration/userAgent``) when it has none.
/// - Response fields keep the origin's order and name case, repeated lines stay separate lines.
///   Hop-by-hop fields (RFC 9110 §7.6.1: `Connection` and the names it lists, `Keep-Alive`,
///   `Transfer-Encoding`, `TE`, `Trailer`, `Upgrade`, `Proxy-*`) are removed, and
///   `Content-Length` except for `HEAD` (the body's count is authoritative). Trailers are dropped;
///   interim 1xx responses never reach the final response (``fetch(_:interim:)`` reports them).
/// - Transfer codings: `chunked` is removed; without ``MediaService/OriginRequest/decodesContentCoding`` any other
///   coding (which the origin applied unasked: no `TE` is sent) is left as received and the body is
///   read until the connection closes (RFC 9112 §6.3 rule 4), `Transfer-Encoding` itself removed
///   (hop-by-hop). With it, libcurl decodes the codings it knows and fails others (`invalid-response`).
/// - IPv6-literal origins (`http://[::1]:8081/`) work.
/// - No per-host connection limit by default (``Configuration/maxConnectionsPerHost``).
///
/// libcurl's own defaults apply otherwise: TLS peer and host verification with the system CA bundle,
/// HTTP/2 over TLS when the origin offers it in ALPN (fetches to one origin then share a connection;
/// field names arrive in lower case, compared case-insensitively as always), and the proxy environment
/// variables (`http_proxy`, `https_proxy`, `no_proxy`) when set.
///
/// Idle connections stay in the multi handle's pool (keep-alive) for the next fetch to the same
/// origin. The fetcher owns its engine thread; releasing the fetcher stops the thread and closes
/// its connections (a fetch in progress holds the fetcher).
public final class CurlOriginFetcher: OriginFetching {
    /// The tunables in force.
    public let configuration: Configuration
    let engine: CurlEngine
    let retryObserver: (@Sendable (_ attempt: Int, _ error: OriginError) -> Void)?

    /// The libcurl version in use, e.g. `7.88.1`.
    public var libcurlVersion: String { engine.library.version }

    /// Creates a fetcher and starts its engine thread.
    /// - Parameter onRetry: called before each retry with the failed attempt's number and error
    ///   (metrics, tests).
    /// - Throws: ``Unavailable`` when `libcurl.so.4` cannot be loaded, is older than 7.85, or its
    ///   multi handle cannot be created.
    public init(configuration: Configuration = Configuration(),
                onRetry: (@Sendable (_ attempt: Int, _ error: OriginError) -> Void)? = nil) throws {
        self.configuration = configuration
        retryObserver = onRetry
        engine = try CurlEngine(library: CurlLibrary.shared.get(), configuration: configuration)
    }

    deinit {
        engine.stop()
    }

    /// Fetches `request`, retrying connection failures of `GET`/`HEAD`.
    /// - Throws: ``MediaService/OriginError`` or `CancellationError`.
    public func fetch(_ request: OriginRequest) async throws -> OriginResponse {
        try await fetch(request, interim: nil)
    }

    /// ``fetch(_:)``, handing each interim response (1xx other than 101: `102`, `103`, `100` when the origin
    /// sends one) to `interim` on the engine thread as its head ends, with its own fields (hop-by-hop
    /// ones removed). No retry follows an interim response (the origin has answered).
    /// - Throws: ``MediaService/OriginError`` or `CancellationError`.
    public func fetch(_ request: OriginRequest, interim: OriginInterimResponse.Handler?) async throws -> OriginResponse {
        guard Self.isAbsoluteHTTPURL(request.url) else {
            throw OriginError(.invalidRequest, "not an absolute http(s) URL")
        }
        return try await OriginRetry.fetch(request, maxRetries: configuration.maxRetries,
                                           retryBaseDelay: configuration.retryBaseDelay, observer: retryObserver) { remaining in
            try await engine.perform(request, remaining: remaining, interim: interim)
        }
    }

    /// Whether `url` is `http://` or `https://` (any case) followed by a non-empty authority and
    /// free of spaces and control characters; libcurl's own parser decides the rest
    /// (`CURLE_URL_MALFORMAT` → `invalid-request`).
    static func isAbsoluteHTTPURL(_ url: String) -> Bool {
        var utf8 = url.utf8[...]
        let prefixLength: Int
        if utf8.count > 7, utf8.prefix(7).elementsEqual("http://".utf8, by: { $0 | 0x20 == $1 | 0x20 }) {
            prefixLength = 7
        } else if utf8.count > 8, utf8.prefix(8).elementsEqual("https://".utf8, by: { $0 | 0x20 == $1 | 0x20 }) {
            prefixLength = 8
        } else {
            return false
        }
        if utf8.contains(where: { $0 <= 0x20 || $0 == 0x7F }) { return false }
        utf8 = utf8.dropFirst(prefixLength)
        guard let first = utf8.first else { return false }
        return first != UInt8(ascii: "/") && first != UInt8(ascii: "?") && first != UInt8(ascii: "#")
    }
}
