import MediaCore
/// Why a request could not be parsed, with the status the server answers it with.
///
/// After any parse error the connection is answered once and closed (RFC 9112 §9.6).
public struct HTTPParseError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A stable identifier of the failure, e.g. `"request-line-too-long"`.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        public let rawValue: String
        public init(_ rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        /// Request line longer than ``HTTPRequestParser/Configuration/maxRequestLineBytes`` → 414.
        public static let requestLineTooLong = Code("request-line-too-long")
        /// Header section longer than ``HTTPRequestParser/Configuration/maxHeaderBytes`` → 431.
        public static let headerSectionTooLarge = Code("header-section-too-large")
        /// More than ``HTTPRequestParser/Configuration/maxFieldCount`` field lines → 431.
        public static let tooManyFields = Code("too-many-fields")
        /// Request line not `method SP request-target SP HTTP-version` → 400.
        public static let malformedRequestLine = Code("malformed-request-line")
        /// A well-formed version other than HTTP/1.0 and HTTP/1.1 → 505.
        public static let unsupportedVersion = Code("unsupported-version")
        /// A field line starting with whitespace (obs-fold, RFC 9112 §5.2) → 400.
        public static let obsoleteLineFolding = Code("obsolete-line-folding")
        /// A CR not followed by LF (RFC 9112 §2.2) → 400.
        public static let bareCarriageReturn = Code("bare-carriage-return")
        /// A field line without a colon or with a name that is not a token → 400.
        public static let invalidFieldName = Code("invalid-field-name")
        /// NUL or another control character in a field value (RFC 9110 §5.5) → 400.
        public static let invalidFieldValue = Code("invalid-field-value")
        /// HTTP/1.1 request without exactly one `Host`, or a `Host` that is not `uri-host[:port]` (RFC 9112 §3.2,
        /// RFC 3986 §3.2.2) → 400.
        public static let invalidHost = Code("invalid-host")
        /// A line ended by LF alone, in the head or in chunked framing (RFC 9112 §2.2 lets a recipient accept it; a
        /// front that reads it otherwise could split the request differently) → 400.
        public static let bareLineFeed = Code("bare-line-feed")
        /// `Content-Length` not 1*DIGIT, a list (`5,5`) or several lines (RFC 9112 §6.3 allows equal ones; refused to
        /// leave no room for a front to disagree) → 400.
        public static let invalidContentLength = Code("invalid-content-length")
        /// Both `Content-Length` and `Transfer-Encoding` (RFC 9112 §6.1) → 400.
        public static let conflictingFraming = Code("conflicting-framing")
        /// `Transfer-Encoding` in HTTP/1.0, or without `chunked` last (RFC 9112 §6.1) → 400.
        public static let invalidTransferEncoding = Code("invalid-transfer-encoding")
        /// A transfer coding other than `chunked` (RFC 9112 §6.1) → 501.
        public static let unsupportedTransferEncoding = Code("unsupported-transfer-encoding")
        /// A chunk-size line, chunk terminator or trailer that breaks RFC 9112 §7.1 → 400.
        public static let invalidChunk = Code("invalid-chunk")
        /// Body longer than ``HTTPRequestParser/Configuration/maxBodyBytes`` → 413.
        public static let bodyTooLarge = Code("body-too-large")
    }

    /// The failure's stable code.
    public let code: Code
    /// The status code to answer with: 400, 413, 414, 431, 501 or 505.
    public let status: HTTPStatus
    /// A one-line human-readable explanation, safe to send to the client (no request bytes).
    public let message: String

    public var description: String { "\(status) \(code): \(message)" }
}

extension HTTPParseError {
    static func badRequest(_ code: Code, _ message: String) -> HTTPParseError {
        HTTPParseError(code: code, status: 400, message: message)
    }
}
