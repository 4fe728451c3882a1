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
        /// Maximum simultaneously open connections; one more is answered `503` and closed. Default: 1,024.
        public var maxConnections: Int
        /// Time allowed to receive a request head, from its first byte (and, on a new connection, from
        /// the accept); while reading a body, the longest pause between two reads. On expiry the
        /// client gets `408` and the connection closes. Default: 10 s.
        public var readHeaderTimeout: Duration
        /// How long a keep-alive connection may wait for its next request before it is closed. Default: 55 s, shorter
        /// than nginx's default upstream `keepalive_timeout` (60 s), so a front's pooled connection is never closed
        /// here just as the front sends on it (docs/http-server.md, "Timeouts, cap and stop").
        public var idleTimeout: Duration
        /// Time allowed to write one response; on expiry the connection is closed. Default: 30 s.
        public var writeTimeout: Duration
        /// How long ``HTTPServer/stop()`` lets in-flight requests finish before it shuts their
        /// sockets down. Default: 10 s.
        public var drainTimeout: Duration
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
            readHeaderTimeout: Duration = .seconds(10), idleTimeout: Duration = .seconds(55),
            writeTimeout: Duration = .seconds(30), drainTimeout: Duration = .seconds(10),
            parser: HTTPRequestParser.Configuration = HTTPRequestParser.Configuration(),
            addsDateField: Bool = true, threadStackBytes: Int = 1_048_576,
            eventLoopCount: Int = Configuration.defaultEventLoopCount
        ) {
            self.host = host
            self.port = port
            self.backlog = backlog
            self.maxConnections = maxConnections
            self.readHeaderTimeout = readHeaderTimeout
            self.idleTimeout = idleTimeout
            self.writeTimeout = writeTimeout
            self.drainTimeout = drainTimeout
            self.parser = parser
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
