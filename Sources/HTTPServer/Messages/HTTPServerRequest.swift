import MediaCore

/// One parsed HTTP/1.1 request, as handed to an ``HTTPHandling`` handler.
///
/// The parser fills every field except ``remoteAddress``, which the connection sets.
/// Field names are case-preserving; look them up with ``field(_:)`` or ``fieldValues(_:)``,
/// which compare names ASCII case-insensitively (RFC 9110 §5.1).
public struct HTTPServerRequest: Sendable {
    /// The method token as received, case-sensitive (RFC 9110 §9.1), e.g. `.get`.
    public var method: HTTPMethod
    /// The request-target as received, unmodified (RFC 9112 §3.2), e.g. `"/catalog/a.jpg?v=2"`.
    public var target: String
    /// The protocol version: `.http1_0` or `.http1_1`.
    public var version: HTTPVersion
    /// The header field lines in order of arrival, names case-preserved, values with OWS trimmed.
    public var headerFields: HTTPFields
    /// The trailer field lines of a chunked body (RFC 9112 §7.1.2), in order. Empty otherwise.
    public var trailerFields: HTTPFields
    /// The message body, de-chunked. Empty when the request has none.
    public var body: [UInt8]
    /// Whether the request carried framing for a body (`Content-Length` or `Transfer-Encoding`),
    /// even an empty one. Lets a handler refuse a `GET` that came with a body.
    public var hasBody: Bool
    /// The peer as `"address:port"` (IPv6 as `"[address]:port"`). Empty when unknown.
    public var remoteAddress: String
    /// Whether the client allows the connection to stay open after this request
    /// (RFC 9112 §9.3: HTTP/1.1 unless `Connection: close`; HTTP/1.0 only with `Connection: keep-alive`).
    public var keepAlive: Bool
    /// What the handler's synchronous path learned about this request for its asynchronous one
    /// (``HTTPHandling/handleSync(_:handoff:)``), so work done on the event loop is not done again; `nil` unless
    /// the handler set it. The server never reads it. A class reference: one word to copy with the request.
    public var handoff: (any AnyObject & Sendable)?

    /// Creates a request. Every parameter but `method` and `target` has a default.
    public init(
        method: HTTPMethod, target: String, version: HTTPVersion = .http1_1,
        headerFields: HTTPFields = [], trailerFields: HTTPFields = [],
        body: [UInt8] = [], hasBody: Bool = false, remoteAddress: String = "", keepAlive: Bool = true
    ) {
        self.method = method
        self.target = target
        self.version = version
        self.headerFields = headerFields
        self.trailerFields = trailerFields
        self.body = body
        self.hasBody = hasBody
        self.remoteAddress = remoteAddress
        self.keepAlive = keepAlive
    }

    /// The combined value of the header lines named `name` (joined with `", "`, RFC 9110 §5.3),
    /// or `nil` when there is none. Names compare ASCII case-insensitively.
    /// - Complexity: O(n) in the number of header lines.
    public func field(_ name: HTTPFieldName) -> String? {
        headerFields[name]
    }

    /// The value of each header line named `name`, in order; empty when absent.
    public func fieldValues(_ name: HTTPFieldName) -> [String] {
        headerFields.values(for: name)
    }
}

/// An HTTP/1.x protocol version (RFC 9112 §2.3).
public struct HTTPVersion: Sendable, Hashable, CustomStringConvertible {
    /// The major version digit.
    public var major: Int
    /// The minor version digit.
    public var minor: Int

    public init(major: Int, minor: Int) {
        self.major = major
        self.minor = minor
    }

    /// `HTTP/1.0`.
    public static let http1_0 = HTTPVersion(major: 1, minor: 0)
    /// `HTTP/1.1`.
    public static let http1_1 = HTTPVersion(major: 1, minor: 1)

    /// `"HTTP/1.1"` form.
    public var description: String { "HTTP/\(major).\(minor)" }
}
