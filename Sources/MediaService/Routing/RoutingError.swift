import MediaCore
/// Why a request target or a route table was refused: a stable ``code`` plus a context.
///
/// Request-target codes answer `400` (``httpStatus``), `path-too-long` and `query-too-long` `414` (RFC 9110
/// §15.5.15); ``Code/noRoute`` answers `404`;
/// ``Code/invalidRoute`` is a configuration error raised by ``Router/init(routes:)``.
/// New codes may be added; switch over ``code`` with a `default` branch.
public typealias RoutingError = DomainError<RoutingErrorCode>

/// The stable codes of ``RoutingError``.
public struct RoutingErrorCode: ErrorCode {
    public let rawValue: String
    /// A code from its stable string, e.g. `"dot-segment"`.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// The request target is empty.
    public static let emptyTarget = Self(rawValue: "empty-target")
    /// An absolute-form target (`http://host/…`): clients never choose the host.
    public static let absoluteForm = Self(rawValue: "absolute-form")
    /// Not origin-form: the target does not start with `/` (e.g. `*` or `a/b`).
    public static let notOriginForm = Self(rawValue: "not-origin-form")
    /// The path is longer than ``RequestTarget/Configuration/maxPathBytes``.
    public static let pathTooLong = Self(rawValue: "path-too-long")
    /// The query is longer than ``RequestTarget/Configuration/maxQueryBytes``.
    public static let queryTooLong = Self(rawValue: "query-too-long")
    /// A `.` or `..` segment, literal or percent-encoded.
    public static let dotSegment = Self(rawValue: "dot-segment")
    /// An empty segment (`//`) other than a trailing slash.
    public static let emptySegment = Self(rawValue: "empty-segment")
    /// `%2F` (any case): an encoded slash inside a segment.
    public static let encodedSlash = Self(rawValue: "encoded-slash")
    /// A backslash, literal or `%5C` (any case).
    public static let backslash = Self(rawValue: "backslash")
    /// A NUL byte, literal or `%00`.
    public static let nulByte = Self(rawValue: "nul-byte")
    /// A control character (0x01–0x1F, 0x7F), literal or percent-encoded.
    public static let controlCharacter = Self(rawValue: "control-character")
    /// `%` not followed by two hex digits.
    public static let badPercentEncoding = Self(rawValue: "bad-percent-encoding")
    /// Percent-decoded segment bytes that are not UTF-8.
    public static let invalidUTF8 = Self(rawValue: "invalid-utf8")
    /// A byte not allowed unencoded in a target: space, `"`, `<`, `>`, `#`, `^`, `` ` ``,
    /// `{`, `|`, `}` or any non-ASCII byte.
    public static let invalidCharacter = Self(rawValue: "invalid-character")
    /// No route's mount prefixes the path.
    public static let noRoute = Self(rawValue: "no-route")
    /// A route table entry is invalid (mount, origin, duplicate name or mount).
    public static let invalidRoute = Self(rawValue: "invalid-route")
}

extension RoutingError {
    /// The HTTP status to answer: 404 for `no-route`, 414 (URI Too Long, RFC 9110 §15.5.15) for
    /// `path-too-long` and `query-too-long`, 500 for `invalid-route`, otherwise 400.
    public var httpStatus: HTTPStatus {
        switch code {
        case .noRoute: 404
        case .pathTooLong, .queryTooLong: 414
        case .invalidRoute: 500
        default: 400
        }
    }
}
