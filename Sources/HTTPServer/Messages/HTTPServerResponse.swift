import MediaCore

/// A response for the server to send.
///
/// The server owns message framing: it writes `Content-Length` (from ``body``) and `Connection`
/// itself and drops those two fields and `Transfer-Encoding` from ``headerFields``. Exceptions:
/// a `Content-Length` field is kept on a `HEAD` or `304` response whose body is empty, so a
/// handler can announce the length of the representation (RFC 9110 §8.6). A handler asks for the
/// connection to close by setting ``closeConnection``.
public struct HTTPServerResponse: Sendable {
    /// The status code, 100–599.
    public var status: HTTPStatus
    /// The reason phrase; defaults to the standard phrase for ``status`` (empty when unknown).
    public var reasonPhrase: String
    /// The header fields in order, names case-preserved.
    public var headerFields: HTTPFields
    /// The body as sent: a buffer or a range of one (a `206` of a stored image is sent from the one shared buffer of
    /// the whole image, not from a copy of the part), and what keeps that buffer shared, held until the write
    /// completes. Default: all of ``body``, no owner.
    public var content: ResponseBody
    /// The body bytes (a copy when the content is a range; setting it sends all of the new bytes). Not sent for
    /// `HEAD` requests or 1xx, 204 and 304 responses.
    public var body: [UInt8] {
        get { content.bytes }
        set { content.bytes = newValue }
    }
    /// The body's length in bytes, without copying.
    public var bodyCount: Int { content.count }
    /// Whether to close the connection after this response. Default: `false`.
    public var closeConnection: Bool
    /// One more header line, written right after ``headerFields``: a per-request field (a request id) added to a
    /// field list shared by many responses (a stored response's prepared fields) without copying that list. It must
    /// not name a field ``headerFields`` holds. Default: `nil`.
    public var additionalField: HTTPFields.Field?
    /// What the handler says about its answer for a handler that wraps it (an access log); never sent, and
    /// `nil` (the default) unless the handler was asked for it.
    public var annotation: (any AnyObject & Sendable)?

    /// Creates a response; `reasonPhrase` defaults to ``MediaCore/HTTPStatus/reasonPhrase``.
    public init(
        status: HTTPStatus, reasonPhrase: String? = nil, headerFields: HTTPFields = [],
        body: [UInt8] = [], closeConnection: Bool = false
    ) {
        self.status = status
        self.reasonPhrase = reasonPhrase ?? status.reasonPhrase
        self.headerFields = headerFields
        content = ResponseBody(body)
        self.closeConnection = closeConnection
    }

    /// The combined value of the header lines named `name` (ASCII case-insensitive), or `nil`.
    public func field(_ name: HTTPFieldName) -> String? {
        if let additionalField, name == HTTPFieldName(additionalField.name) { return additionalField.value }
        return headerFields[name]
    }

    /// An RFC 9457 `application/problem+json` response with the same members and fields as the service's
    /// problems (`Cache-Control: no-store`, `X-Content-Type-Options: nosniff`):
    /// `{"code":…,"detail":…,"status":…,"title":…,"type":"https://mediactl.dev/problems/<code>"}`.
    /// `code` defaults to a stable code per status (`request-line-too-long` for 414, …).
    /// - Parameters:
    ///   - status: the status code; the title is its reason phrase.
    ///   - detail: a human-readable explanation (JSON-escaped here).
    public static func problem(status: HTTPStatus, detail: String, code: String? = nil, closeConnection: Bool = false)
        -> HTTPServerResponse
    {
        let body = ProblemDetails(status: status, code: code ?? defaultCode(for: status), detail: detail).json
        return HTTPServerResponse(
            status: status,
            headerFields: [
                (.contentType, "application/problem+json"), (.cacheControl, "no-store"), (.xContentTypeOptions, "nosniff"),
            ],
            body: body, closeConnection: closeConnection)
    }

    /// The standard reason phrase for `status` (``MediaCore/HTTPStatus/reasonPhrase(for:)``), or `""` when unknown.
    public static func reasonPhrase(for status: Int) -> String { HTTPStatus.reasonPhrase(for: status) }

    /// The stable problem `code` of the server's own answers, by status.
    static func defaultCode(for status: HTTPStatus) -> String {
        switch status {
        case 400: return "malformed-request"
        case 408: return "request-timeout"
        case 413: return "body-too-large"
        case 414: return "request-line-too-long"
        case 431: return "header-fields-too-large"
        case 501: return "not-implemented"
        case 503: return "too-many-connections"
        case 505: return "http-version-not-supported"
        default: return "http-\(status)"
        }
    }
}
