import Glibc

extension HTTPServer {
    /// Where the server listens and how it bounds connections, time and memory.
    public struct Configuration: Sendable, Hashable {
        /// The numeric IPv4 or IPv6 address to bind, e.g. `"127.0.0.1"`, `"0.0.0.0"` (any IPv4), `"::1"`.
        /// Host names are not resolved. Default: `"127.0.0.1"`.
        public var host: String
        /// The TCP port; `0` picks an ephemeral port, reported by ``HTTPServer/start()``. Default: 8080.
        public var port: Int
        /// The `listen(2)` backlog. Default: 1,024.
        public var backlog: Int
        /// Maximum simultaneously open connections; one more is answered `503` and closed. From ⅞ of it on (a cap of 8 or
        /// more), each new
        /// connection (and each refused one) makes the loops close up to 16 idle keep-alive connections together,
        /// longest idle first, so idle connections give way to new clients; and that last eighth admits only addresses
        /// holding fewer than 8 connections (``uncappedPeers`` excepted), so a few addresses at their per-address cap
        /// cannot take every slot. Default: 1,024.
        public var maxConnections: Int
        /// Maximum simultaneously open connections from one peer address (port ignored); one more is answered `503`
        /// (`too many connections from one address`) and closed. Default: 256.
        public var maxConnectionsPerPeer: Int
        /// Peer addresses exempt from ``maxConnectionsPerPeer``, as the server writes them (`"127.0.0.1"`, `"[::1]"`): a front
        /// proxy whose connections carry many clients. Default: none.
        public var uncappedPeers: Set<String>
        /// Time allowed to receive a request head, from its first byte (and, on a new connection, from
        /// the accept); for a body, the grace before ``minTransferRate`` applies. On expiry the client gets `408`
        /// and the connection closes. Default: 10 s.
        public var readHeaderTimeout: Duration
        /// Time allowed to receive a whole request, head and body, from its first byte; then `408` and close.
        /// Default: 60 s.
        public var requestTimeout: Duration
        /// The slowest transfer accepted, in bytes per second, for request bodies and responses alike: a body must
        /// have arrived at this rate since its head, less ``readHeaderTimeout`` of grace, and a response must have
        /// left at this rate since its first partial write, less ``writeTimeout`` of grace (mod_reqtimeout's
        /// `MinRate`, applied both ways); otherwise `408` (body) or close (response). 0: no allowance for size (a
        /// body within ``readHeaderTimeout``, a response within ``writeTimeout``). Default: 1,024.
        public var minTransferRate: Int
        /// How long a keep-alive connection may wait for its next request before it is closed. Default: 55 s, shorter
        /// than nginx's default upstream `keepalive_timeout` (60 s), so a front's pooled connection is never closed
        /// here just as the front sends on it (docs/http-server.md, "Timeouts, cap and stop").
        public var idleTimeout: Duration
        /// Grace for writing one response, from its first partial write: the whole response must be written within
        /// this plus its size at ``minTransferRate`` (1,024 s per MiB at the default 1 KiB/s), and never fall further
        /// behind that rate than this; then the connection is closed. Default: 30 s.
        public var writeTimeout: Duration
        /// How long ``HTTPServer/stop()`` lets in-flight requests finish before it shuts their
        /// sockets down. Default: 10 s.
        public var drainTimeout: Duration
        /// Request body bytes all connections together may hold in memory (bodies being received and bodies whose
        /// request is being handled); a body that would pass it gets `503` `body-budget-exhausted` with `Retry-After: 1`
        /// and its connection closes. Each body is also bounded by the parser's `maxBodyBytes`. Default: 67,108,864
        /// (64 MiB).
        public var maxBufferedBodyBytes: Int
        /// Of ``maxBufferedBodyBytes``, what the connections of one peer address may hold together (``uncappedPeers``
        /// excepted); past it, the same `503`. One client cannot hold the budget. Default: 16,777,216 (16 MiB, two
        /// bodies of the parser's default `maxBodyBytes`).
        public var maxBufferedBodyBytesPerPeer: Int
        /// Request parsing limits (414, 431, 413). Default: ``HTTPRequestParser/Configuration/init(maxRequestLineBytes:maxHeaderBytes:maxFieldCount:maxBodyBytes:maxChunkLineBytes:underscoreNames:)`` defaults.
        public var parser: HTTPRequestParser.Configuration
        /// Whether responses without a `Date` field get one (RFC 9110 §6.6.1). Default: `true`.
        public var addsDateField: Bool
        /// Stack size of each event-loop thread (which runs ``HTTPHandling/handleSync(_:)``), in bytes.
        /// Default: 1,048,576 (1 MiB).
        public var threadStackBytes: Int
        /// How many event-loop threads (each with its own epoll instance) serve the connections;
        /// accepted connections are handed to them round-robin. Values below 1 mean 1.
        /// Default: the number of online CPUs (``defaultEventLoopCount``).
        public var eventLoopCount: Int

        public init(
            host: String = "127.0.0.1", port: Int = 8080, backlog: Int = 1_024, maxConnections: Int = 1_024,
            maxConnectionsPerPeer: Int = 256, uncappedPeers: Set<String> = [],
            readHeaderTimeout: Duration = .seconds(10), requestTimeout: Duration = .seconds(60), minTransferRate: Int = 1_024,
            idleTimeout: Duration = .seconds(55),
            writeTimeout: Duration = .seconds(30), drainTimeout: Duration = .seconds(10),
            maxBufferedBodyBytes: Int = 67_108_864, maxBufferedBodyBytesPerPeer: Int = 16_777_216,
            parser: HTTPRequestParser.Configuration = HTTPRequestParser.Configuration(),
            addsDateField: Bool = true, threadStackBytes: Int = 1_048_576,
            eventLoopCount: Int = Configuration.defaultEventLoopCount
        ) {
            self.host = host
            self.port = port
            self.backlog = backlog
            self.maxConnections = maxConnections
            self.maxConnectionsPerPeer = maxConnectionsPerPeer
            self.uncappedPeers = uncappedPeers
            self.readHeaderTimeout = readHeaderTimeout
            self.requestTimeout = requestTimeout
            self.minTransferRate = minTransferRate
            self.idleTimeout = idleTimeout
            self.writeTimeout = writeTimeout
            self.drainTimeout = drainTimeout
            self.parser = parser
            self.maxBufferedBodyBytes = maxBufferedBodyBytes
            self.maxBufferedBodyBytesPerPeer = maxBufferedBodyBytesPerPeer
            self.addsDateField = addsDateField
            self.threadStackBytes = threadStackBytes
            self.eventLoopCount = eventLoopCount
        }

        /// The number of online CPUs (`sysconf(_SC_NPROCESSORS_ONLN)`), at least 1.
        public static var defaultEventLoopCount: Int {
            max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN)))
        }
    }
}

extension Duration {
    /// Whole milliseconds, rounded up, clamped to `Int32` for `poll(2)`.
    var pollMilliseconds: Int {
        let (seconds, attoseconds) = components
        let millis = seconds * 1_000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
        return Int(max(0, min(millis, Int64(Int32.max))))
    }
}
