import MediaOrigin

extension CurlOriginFetcher {
    /// Transport tunables.
    public struct Configuration: Sendable, Hashable {
        /// Seconds without progress before the fetch fails with `timeout`: the connect timeout
        /// (`CURLOPT_CONNECTTIMEOUT_MS`, unless ``connectTimeout`` is set) and, once the final
        /// response's status line has arrived (not a 1xx, not a proxy's `CONNECT` answer), the stall
        /// timeout (no byte moved for that long, header lines included; checked about once a second). Waiting for the status line is bounded by the request's own timeout
        /// (``MediaService/OriginRequest/timeout``, the tier's `originTimeout`) only. Default: 10.
        public var idleTimeout: Double
        /// Seconds allowed to establish a connection (TCP and TLS), or `nil` for ``idleTimeout``.
        /// Default: `nil`.
        public var connectTimeout: Double?
        /// Retries after a connection failure, for `GET`/`HEAD` only. Default: 2.
        public var maxRetries: Int
        /// Backoff before retry *n* (1-based): `retryBaseDelay × 2^(n-1) × jitter(0.5…1.5)`,
        /// in seconds. Default: 0.05.
        public var retryBaseDelay: Double
        /// Maximum simultaneous connections per origin host (`CURLMOPT_MAX_HOST_CONNECTIONS`),
        /// 0 for no limit. Default: 0.
        ///
        /// No limit by default: a fetch queued behind a per-host limit spends its origin timeout
        /// waiting (a burst of misses to a slow origin answered 504, and one route starved another
        /// on the same host, with URLSession's 16). The service already collapses identical
        /// misses into one fetch, so concurrent fetches are distinct objects the clients wait for;
        /// the origin's own accept queue is the back-pressure.
        public var maxConnectionsPerHost: Int
        /// Maximum simultaneous connections in all (`CURLMOPT_MAX_TOTAL_CONNECTIONS`), 0 for no
        /// limit. Default: 0.
        public var maxTotalConnections: Int
        /// Idle keep-alive connections kept for reuse (`CURLMOPT_MAXCONNECTS`). Default: 64.
        public var maxIdleConnections: Int
        /// `User-Agent` sent when the request has none. Default: ``MediaOrigin/ProductVersion/userAgent`` (`mediactl/0.1.0`).
        public var userAgent: String

        public init(idleTimeout: Double = 10, connectTimeout: Double? = nil, maxRetries: Int = 2,
                    retryBaseDelay: Double = 0.05, maxConnectionsPerHost: Int = 0, maxTotalConnections: Int = 0,
                    maxIdleConnections: Int = 64, userAgent: String = ProductVersion.userAgent) {
            self.idleTimeout = idleTimeout
            self.connectTimeout = connectTimeout
            self.maxRetries = maxRetries
            self.retryBaseDelay = retryBaseDelay
            self.maxConnectionsPerHost = maxConnectionsPerHost
            self.maxTotalConnections = maxTotalConnections
            self.maxIdleConnections = maxIdleConnections
            self.userAgent = userAgent
        }
    }

    /// libcurl could not be loaded or is too old (thrown by ``CurlOriginFetcher/init(configuration:onRetry:)``).
    public struct Unavailable: Error, Hashable, Sendable, CustomStringConvertible {
        /// Why, e.g. `cannot load libcurl.so.4: libcurl.so.4: cannot open shared object file: …`.
        public let reason: String

        public init(_ reason: String) { self.reason = reason }

        public var description: String { "libcurl unavailable: \(reason)" }
    }
}
