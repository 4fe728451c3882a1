/// An HTTP request method (RFC 9110 §9): a case-sensitive token, `GET` is not `get` (§9.1).
///
/// The methods mediactl handles are static members (`.get`, `.head`, `.options`, `.post`, …); a string literal is a
/// method too, so an unknown one received on the wire stays what it was. The shape follows swift-http-types'
/// `HTTPRequest.Method`.
public struct HTTPMethod: Sendable, Hashable, RawRepresentable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The token as received or written, e.g. `"GET"`.
    public let rawValue: String

    @inlinable public init(rawValue: String) {
        self.rawValue = rawValue
    }

    @inlinable public init(_ rawValue: String) {
        self.rawValue = rawValue
    }

    @inlinable public init(stringLiteral value: String) {
        rawValue = value
    }

    public var description: String { rawValue }

    /// `GET` (RFC 9110 §9.3.1).
    @inlinable public static var get: HTTPMethod { HTTPMethod("GET") }
    /// `HEAD` (§9.3.2).
    @inlinable public static var head: HTTPMethod { HTTPMethod("HEAD") }
    /// `POST` (§9.3.3).
    @inlinable public static var post: HTTPMethod { HTTPMethod("POST") }
    /// `PUT` (§9.3.4).
    @inlinable public static var put: HTTPMethod { HTTPMethod("PUT") }
    /// `DELETE` (§9.3.5).
    @inlinable public static var delete: HTTPMethod { HTTPMethod("DELETE") }
    /// `CONNECT` (§9.3.6).
    @inlinable public static var connect: HTTPMethod { HTTPMethod("CONNECT") }
    /// `OPTIONS` (§9.3.7).
    @inlinable public static var options: HTTPMethod { HTTPMethod("OPTIONS") }
    /// `TRACE` (§9.3.8).
    @inlinable public static var trace: HTTPMethod { HTTPMethod("TRACE") }
    /// `PATCH` (RFC 5789).
    @inlinable public static var patch: HTTPMethod { HTTPMethod("PATCH") }

    /// Whether the method is `GET` or `HEAD`: the methods a cache may answer from a stored response (RFC 9111 §4)
    /// and an image service reads with.
    @inlinable public var isRead: Bool { self == .get || self == .head }
}
