import MediaCore
/// Why an origin fetch failed: a stable ``code``, a context, and the number of attempts made.
///
/// New codes may be added; switch over ``code`` with a `default` branch.
public struct OriginError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A stable reason code.
    public struct Code: ErrorCode {
        public let rawValue: String
        /// A code from its stable string, e.g. `"timeout"`.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// The request's total timeout passed, or the connection was idle too long (→ 504).
        public static let timeout = Code(rawValue: "timeout")
        /// No connection could be made or it broke before a response (→ 502).
        public static let connectionFailed = Code(rawValue: "connection-failed")
        /// The body exceeded ``OriginRequest/maxBodyBytes``; receiving stopped (→ 502).
        public static let tooLarge = Code(rawValue: "too-large")
        /// A redirect the caller refuses to serve or store (fetchers return 3xx as-is; the
        /// pipeline raises this) (→ 502).
        public static let redirectRefused = Code(rawValue: "redirect-refused")
        /// The origin's answer was not a usable HTTP response (→ 502).
        public static let invalidResponse = Code(rawValue: "invalid-response")
        /// The request itself cannot be sent (bad URL or method).
        public static let invalidRequest = Code(rawValue: "invalid-request")
    }

    /// The stable reason code.
    public let code: Code
    /// What failed, for people. Never contains credentials or body bytes.
    public let context: String
    /// How many attempts were made (1 + retries).
    public let attempts: Int

    public init(_ code: Code, _ context: String, attempts: Int = 1) {
        self.code = code
        self.context = context
        self.attempts = attempts
    }

    /// The gateway status to answer: 504 for `timeout`, otherwise 502.
    public var httpStatus: HTTPStatus { code == .timeout ? .gatewayTimeout : .badGateway }

    public var description: String { "\(code): \(context) (attempts: \(attempts))" }
}
