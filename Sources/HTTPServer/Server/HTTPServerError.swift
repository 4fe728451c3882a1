/// A failure to start the server.
public struct HTTPServerError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A stable identifier of the failure.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        public let rawValue: String
        public init(_ rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        /// ``HTTPServer/Configuration/host`` is not a numeric IPv4/IPv6 address or the port is out of range.
        public static let invalidAddress = Code("invalid-address")
        /// `socket(2)`, `setsockopt(2)` or `pipe(2)` failed.
        public static let socketFailed = Code("socket-failed")
        /// `bind(2)` failed (e.g. the port is in use: errno 98).
        public static let bindFailed = Code("bind-failed")
        /// `listen(2)` failed.
        public static let listenFailed = Code("listen-failed")
        /// The acceptor thread could not be created.
        public static let threadFailed = Code("thread-failed")
        /// ``HTTPServer/start()`` was called on a running or stopped server (a failed start may be retried).
        public static let alreadyStarted = Code("already-started")
    }

    /// The failure's stable code.
    public let code: Code
    /// What failed, e.g. `"bind 127.0.0.1:8080: Address already in use"`.
    public let message: String
    /// The `errno` observed, or 0.
    public let errno: Int32

    public init(code: Code, message: String, errno: Int32 = 0) {
        self.code = code
        self.message = message
        self.errno = errno
    }

    public var description: String { "\(code): \(message)" }
}
