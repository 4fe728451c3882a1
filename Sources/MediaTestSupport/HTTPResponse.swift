import Foundation

/// One HTTP/1.1 response as read off the wire by ``RawHTTP``.
public struct HTTPResponse: Sendable {
    /// The status code, e.g. 200.
    public var status: Int
    /// Header fields in wire order, names as sent.
    public var fields: [(name: String, value: String)]
    /// The body (de-chunked when `Transfer-Encoding: chunked`).
    public var body: [UInt8]

    public init(status: Int, fields: [(name: String, value: String)], body: [UInt8]) {
        self.status = status
        self.fields = fields
        self.body = body
    }

    /// The first value of `name` (case-insensitive), or `nil`.
    public func header(_ name: String) -> String? {
        fields.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    /// Every value of `name` (case-insensitive), in order.
    public func headers(_ name: String) -> [String] {
        fields.filter { $0.name.lowercased() == name.lowercased() }.map(\.value)
    }

    /// The body as UTF-8 text.
    public var text: String { String(decoding: body, as: UTF8.self) }

    /// The problem+json `detail` member, or `nil` when the body is not a problem document.
    public var problemDetail: String? {
        guard let object = try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any] else { return nil }
        return object["detail"] as? String
    }

    /// The problem+json `code` member, or `nil` when the body is not a problem document.
    public var problemCode: String? {
        guard let object = try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any] else { return nil }
        return object["code"] as? String
    }
}
