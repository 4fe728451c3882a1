import Foundation
import HTTPCaching

/// An RFC 9457 problem details object, sent as `application/problem+json`.
///
/// `type` is `https://mediactl.dev/problems/<code>` for the stable `code`; `title` is fixed per
/// status; `detail` says what happened in words and never contains credentials or private URLs.
public struct ProblemDetails: Sendable, Hashable, Codable {
    /// A URI naming the problem type.
    public var type: String
    /// Short, human-readable summary of the type.
    public var title: String
    /// The HTTP status.
    public var status: Int
    /// What happened in this occurrence.
    public var detail: String
    /// The stable machine-readable code (an extension member), e.g. `over-pixel-limit`.
    public var code: String

    public init(status: Int, code: String, detail: String) {
        self.type = "https://mediactl.dev/problems/" + code
        self.title = ProblemDetails.title(for: status)
        self.status = status
        self.detail = detail
        self.code = code
    }

    /// The JSON body: keys sorted, UTF-8.
    public var json: [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return Array((try? encoder.encode(self)) ?? Data("{}".utf8))
    }

    static func title(for status: Int) -> String {
        switch status {
        case 400: return "Bad Request"
        case 401: return "Unauthorized"
        case 403: return "Forbidden"
        case 404: return "Not Found"
        case 405: return "Method Not Allowed"
        case 413: return "Content Too Large"
        case 414: return "URI Too Long"
        case 415: return "Unsupported Media Type"
        case 422: return "Unprocessable Content"
        case 429: return "Too Many Requests"
        case 431: return "Request Header Fields Too Large"
        case 500: return "Internal Server Error"
        case 502: return "Bad Gateway"
        case 503: return "Service Unavailable"
        case 504: return "Gateway Timeout"
        default: return "Error"
        }
    }
}
