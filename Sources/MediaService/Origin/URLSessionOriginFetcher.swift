import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HTTPCaching

/// ``OriginFetching`` over `URLSession` (libcurl on Linux) with every cache and cookie store off.
///
/// - No `URLCache` (`urlCache = nil`, `.reloadIgnoringLocalCacheData`), no cookies
///   (`httpCookieStorage = nil`, `httpShouldSetCookies = false`).
/// - Redirects are never followed: the 3xx response is returned as-is.
/// - `GET`/`HEAD` are retried on connection failures only (refused, unreachable, closed before
///   any response byte; never timeouts, TLS failures or bad answers),
///   at most ``Configuration/maxRetries`` times, with jittered exponential backoff; a retry whose
///   backoff would end past the fetch's deadline is not made (``OriginRetry``, shared with
///   ``CurlOriginFetcher``).
/// - The body is received through a delegate and the task is cancelled as soon as it exceeds
///   ``OriginRequest/maxBodyBytes`` (or at once when `Content-Length` announces more).
/// - ``OriginRequest/timeout`` bounds the whole fetch, retries included; ``Configuration/idleTimeout``
///   bounds any period without progress (connect included).
///
/// Response fields are sorted by name; repeated fields arrive combined with ", " (`HTTPURLResponse`
/// merges them). Hop-by-hop fields are removed; `Content-Encoding` is removed when libcurl decoded
/// the body (gzip, deflate, br, zstd), and `Content-Length` except for `HEAD`, so the fields
/// describe the returned bytes.
///
/// Interim (1xx) responses are not reported (`URLSession` does not expose them):
/// ``OriginFetching/fetch(_:interim:)`` is the default, which never calls its handler, so a service
/// on this fallback transport forwards no `103 Early Hints`. Their fields never reach the final
/// response either.
public final class URLSessionOriginFetcher: OriginFetching {
    /// Transport tunables.
    public struct Configuration: Sendable, Hashable {
        /// Seconds without progress (connecting, or between bytes) before `timeout`. Default: 10.
        public var idleTimeout: Double
        /// Retries after a connection failure, for `GET`/`HEAD` only. Default: 2.
        public var maxRetries: Int
        /// Backoff before retry *n* (1-based): `retryBaseDelay × 2^(n-1) × jitter(0.5…1.5)`,
        /// in seconds. Default: 0.05.
        public var retryBaseDelay: Double
        /// Maximum simultaneous connections per origin host. Default: 16.
        public var maxConnectionsPerHost: Int
        /// `User-Agent` sent when the request has none (instead of the process name and curl
        /// version FoundationNetworking would send). Default: `mediactl`.
        public var userAgent: String

        public init(idleTimeout: Double = 10, maxRetries: Int = 2, retryBaseDelay: Double = 0.05,
                    maxConnectionsPerHost: Int = 16, userAgent: String = "mediactl") {
            self.idleTimeout = idleTimeout
            self.maxRetries = maxRetries
            self.retryBaseDelay = retryBaseDelay
            self.maxConnectionsPerHost = maxConnectionsPerHost
            self.userAgent = userAgent
        }
    }

    /// The tunables in force.
    public let configuration: Configuration
    let session: URLSession
    let delegate: OriginSessionDelegate
    let retryObserver: (@Sendable (_ attempt: Int, _ error: OriginError) -> Void)?

    /// Creates a fetcher with its own `URLSession`.
    /// - Parameter onRetry: called before each retry with the failed attempt's number and error
    ///   (metrics, tests).
    public init(configuration: Configuration = Configuration(),
                onRetry: (@Sendable (_ attempt: Int, _ error: OriginError) -> Void)? = nil) {
        self.configuration = configuration
        retryObserver = onRetry
        let sessionConfiguration = URLSessionConfiguration.ephemeral
        sessionConfiguration.urlCache = nil
        sessionConfiguration.requestCachePolicy = .reloadIgnoringLocalCacheData
        sessionConfiguration.httpCookieStorage = nil
        sessionConfiguration.httpShouldSetCookies = false
        sessionConfiguration.httpCookieAcceptPolicy = .never
        sessionConfiguration.urlCredentialStorage = nil
        sessionConfiguration.timeoutIntervalForRequest = configuration.idleTimeout
        sessionConfiguration.httpMaximumConnectionsPerHost = configuration.maxConnectionsPerHost
        delegate = OriginSessionDelegate()
        session = URLSession(configuration: sessionConfiguration, delegate: delegate, delegateQueue: nil)
    }

    deinit {
        session.invalidateAndCancel()
    }

    /// Fetches `request`, retrying connection failures of `GET`/`HEAD`.
    /// - Throws: ``OriginError`` or `CancellationError`.
    public func fetch(_ request: OriginRequest) async throws -> OriginResponse {
        guard let url = URL(string: request.url), let scheme = url.scheme?.lowercased(),
              scheme == "http" || scheme == "https", url.host != nil
        else { throw OriginError(.invalidRequest, "not an absolute http(s) URL") }
        return try await OriginRetry.fetch(request, maxRetries: configuration.maxRetries,
                                           retryBaseDelay: configuration.retryBaseDelay, observer: retryObserver) { remaining in
            try await once(request, url: url, remaining: remaining, timeout: request.timeout)
        }
    }

    /// One attempt, bounded by `remaining`.
    func once(_ request: OriginRequest, url: URL, remaining: Duration, timeout: Double) async throws -> OriginResponse {
        var urlRequest = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData,
                                    timeoutInterval: configuration.idleTimeout)
        urlRequest.httpMethod = request.method
        urlRequest.httpShouldHandleCookies = false
        if !request.body.isEmpty { urlRequest.httpBody = Data(request.body) }
        for field in request.fields { urlRequest.addValue(field.value, forHTTPHeaderField: field.name) }
        if !request.fields.contains("User-Agent") {
            urlRequest.setValue(configuration.userAgent, forHTTPHeaderField: "User-Agent")
        }
        let task = session.dataTask(with: urlRequest)
        let id = task.taskIdentifier
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<OriginResponse, any Error>) in
                delegate.register(id, maxBodyBytes: request.maxBodyBytes, continuation: continuation)
                delegate.attach(Task { [delegate] in
                    try await Task.sleep(for: remaining)
                    if delegate.fail(id, OriginError(.timeout, "no complete answer within \(timeout) s")) { task.cancel() }
                }, to: id)
                if Task.isCancelled {
                    delegate.fail(id, CancellationError())
                } else {
                    task.resume()
                }
            }
        } onCancel: { [delegate] in
            delegate.fail(id, CancellationError())
            task.cancel()
        }
    }
}
