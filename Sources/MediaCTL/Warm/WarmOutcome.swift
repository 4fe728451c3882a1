import Foundation
import HTTPCaching
import MediaCore
import MediaService

/// What happened to one warmed target, read from the service's answer (RFC 9211 `Cache-Status`).
public enum WarmOutcome: Sendable, Hashable {
    /// Fetched and stored (`Cache-Status: …; stored`).
    case stored
    /// A stored response was validated and refreshed (`fwd-status=304`).
    case refreshed
    /// Already stored and fresh (`Cache-Status: mediactl; hit`).
    case fresh
    /// Answered but not stored; `reason` is the `Cache-Status` `detail` (such as `no-store`), or `-`.
    case notStored(reason: String)
    /// Answered with a status of 400 or more (or another that is not a success): the status and the
    /// problem's `code` (RFC 9457), `-` when the body has none.
    case refused(status: HTTPStatus, code: String)
    /// No answer: the connection failed or timed out; the transport's message.
    case failed(reason: String)

    /// The outcome of an answer with `status`, `fields` and `body`.
    public static func of(status: HTTPStatus, fields: HTTPFields, body: [UInt8]) -> WarmOutcome {
        guard (200..<400).contains(status) else { return .refused(status: status, code: problemCode(body) ?? "-") }
        let parameters = (fields[.cacheStatus] ?? "").split(separator: ";").dropFirst()
            .map { $0.drop { $0 == " " } }
        var detail: Substring?
        for parameter in parameters {
            if parameter == "stored" { return .stored }
            if parameter == "hit" { return .fresh }
            if parameter == "fwd-status=304" { return .refreshed }
            if parameter.hasPrefix("detail=") { detail = parameter.dropFirst("detail=".count) }
        }
        return .notStored(reason: detail.map(String.init) ?? "-")
    }

    /// The `code` member of a problem+json body (RFC 9457), or `nil`.
    static func problemCode(_ body: [UInt8]) -> String? {
        guard let object = try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any] else { return nil }
        return object["code"] as? String
    }
}
