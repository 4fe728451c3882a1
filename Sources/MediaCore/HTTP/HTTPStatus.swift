/// An HTTP status code (RFC 9110 §15), 100–599 on the wire, with the one table of reason phrases (for the
/// server's status lines and the titles of problem details).
///
/// An integer literal is a status, and statuses compare by code, so `response.status == 200` and
/// `status >= 500` read as before; the codes mediactl answers with are static members (`.ok`, `.notModified`,
/// …). The shape follows swift-http-types' `HTTPResponse.Status`. Encoded as its code (a JSON number).
public struct HTTPStatus: Sendable, Hashable, Comparable, RawRepresentable, ExpressibleByIntegerLiteral,
    LosslessStringConvertible, Codable
{
    /// The three-digit code, e.g. `304`.
    public let code: Int

    @inlinable public init(code: Int) {
        self.code = code
    }

    @inlinable public init(rawValue: Int) {
        code = rawValue
    }

    @inlinable public init(integerLiteral value: Int) {
        code = value
    }

    public init(from decoder: any Decoder) throws {
        code = try decoder.singleValueContainer().decode(Int.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(code)
    }

    @inlinable public var rawValue: Int { code }

    /// The code in decimal, e.g. `"304"`.
    public var description: String { String(code) }

    /// The status of a decimal code (`"304"`), or `nil` when `description` is not three digits.
    public init?(_ description: String) {
        guard description.utf8.count == 3, let code = Int(description) else { return nil }
        self.code = code
    }

    /// Whether the status has `code`: for a code read from elsewhere (a table of expected codes, a log line).
    @inlinable public static func == (lhs: HTTPStatus, rhs: Int) -> Bool { lhs.code == rhs }
    /// Whether the status does not have `code`.
    @inlinable public static func != (lhs: HTTPStatus, rhs: Int) -> Bool { lhs.code != rhs }

    @inlinable public static func < (lhs: HTTPStatus, rhs: HTTPStatus) -> Bool { lhs.code < rhs.code }

    /// The standard reason phrase of ``code``, or `""` when unknown.
    public var reasonPhrase: String { HTTPStatus.reasonPhrase(for: code) }

    /// The class of a status (RFC 9110 §15: its first digit).
    public enum Kind: Sendable, Hashable {
        case informational, successful, redirection, clientError, serverError, invalid
    }

    /// The class of ``code``; `.invalid` outside 100–599.
    public var kind: Kind {
        switch code {
        case 100..<200: .informational
        case 200..<300: .successful
        case 300..<400: .redirection
        case 400..<500: .clientError
        case 500..<600: .serverError
        default: .invalid
        }
    }

    public static let ok: HTTPStatus = 200
    public static let noContent: HTTPStatus = 204
    public static let partialContent: HTTPStatus = 206
    public static let notModified: HTTPStatus = 304
    public static let badRequest: HTTPStatus = 400
    public static let unauthorized: HTTPStatus = 401
    public static let forbidden: HTTPStatus = 403
    public static let notFound: HTTPStatus = 404
    public static let methodNotAllowed: HTTPStatus = 405
    public static let notAcceptable: HTTPStatus = 406
    public static let gone: HTTPStatus = 410
    public static let contentTooLarge: HTTPStatus = 413
    public static let uriTooLong: HTTPStatus = 414
    public static let rangeNotSatisfiable: HTTPStatus = 416
    public static let tooManyRequests: HTTPStatus = 429
    public static let internalServerError: HTTPStatus = 500
    public static let notImplemented: HTTPStatus = 501
    public static let badGateway: HTTPStatus = 502
    public static let serviceUnavailable: HTTPStatus = 503
    public static let gatewayTimeout: HTTPStatus = 504

    /// The standard reason phrase for `status`: every code in the IANA HTTP Status Code Registry (RFC 9110 §15,
    /// 102 RFC 2518, 103 RFC 8297, 207 RFC 4918, 208 and 508 RFC 5842, 226 RFC 3229, 423 and 424 RFC 4918, 425
    /// RFC 8470, 428, 429, 431 and 511 RFC 6585, 451 RFC 7725, 506 RFC 2295, 507 RFC 4918, 510 RFC 2774), or `""`
    /// for an unregistered code.
    public static func reasonPhrase(for status: Int) -> String {
        switch status {
        case 100: "Continue"
        case 101: "Switching Protocols"
        case 102: "Processing"
        case 103: "Early Hints"
        case 200: "OK"
        case 201: "Created"
        case 202: "Accepted"
        case 203: "Non-Authoritative Information"
        case 204: "No Content"
        case 205: "Reset Content"
        case 206: "Partial Content"
        case 207: "Multi-Status"
        case 208: "Already Reported"
        case 226: "IM Used"
        case 300: "Multiple Choices"
        case 301: "Moved Permanently"
        case 302: "Found"
        case 303: "See Other"
        case 304: "Not Modified"
        case 305: "Use Proxy"
        case 307: "Temporary Redirect"
        case 308: "Permanent Redirect"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 402: "Payment Required"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 406: "Not Acceptable"
        case 407: "Proxy Authentication Required"
        case 408: "Request Timeout"
        case 409: "Conflict"
        case 410: "Gone"
        case 411: "Length Required"
        case 412: "Precondition Failed"
        case 413: "Content Too Large"
        case 414: "URI Too Long"
        case 415: "Unsupported Media Type"
        case 416: "Range Not Satisfiable"
        case 417: "Expectation Failed"
        case 421: "Misdirected Request"
        case 422: "Unprocessable Content"
        case 423: "Locked"
        case 424: "Failed Dependency"
        case 425: "Too Early"
        case 426: "Upgrade Required"
        case 428: "Precondition Required"
        case 429: "Too Many Requests"
        case 431: "Request Header Fields Too Large"
        case 451: "Unavailable For Legal Reasons"
        case 500: "Internal Server Error"
        case 501: "Not Implemented"
        case 502: "Bad Gateway"
        case 503: "Service Unavailable"
        case 504: "Gateway Timeout"
        case 505: "HTTP Version Not Supported"
        case 506: "Variant Also Negotiates"
        case 507: "Insufficient Storage"
        case 508: "Loop Detected"
        case 510: "Not Extended"
        case 511: "Network Authentication Required"
        default: ""
        }
    }
}
