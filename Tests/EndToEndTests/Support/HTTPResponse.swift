import Foundation

/// One HTTP/1.1 response as read off the wire.
struct HTTPResponse: Sendable {
    /// The status code, e.g. 200.
    var status: Int
    /// Header fields in wire order, names as sent.
    var fields: [(name: String, value: String)]
    /// The body (de-chunked when `Transfer-Encoding: chunked`).
    var body: [UInt8]

    /// The first value of `name` (case-insensitive), or `nil`.
    func header(_ name: String) -> String? {
        fields.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    /// Every value of `name` (case-insensitive), in order.
    func headers(_ name: String) -> [String] {
        fields.filter { $0.name.lowercased() == name.lowercased() }.map(\.value)
    }

    /// The body as UTF-8 text.
    var text: String { String(decoding: body, as: UTF8.self) }

    /// The parsed `Cache-Status` value, or an empty one.
    var cacheStatus: CacheStatusValue { CacheStatusValue(header("Cache-Status") ?? "") }

    /// The problem+json `detail` member, or `nil` when the body is not a problem document.
    var problemDetail: String? {
        guard let object = try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any] else { return nil }
        return object["detail"] as? String
    }

    /// The problem+json `code` member, or `nil` when the body is not a problem document.
    var problemCode: String? {
        guard let object = try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any] else { return nil }
        return object["code"] as? String
    }
}
