import MediaCore

/// An interim (1xx) response a handler sends ahead of its final response (RFC 9110 §15.2), e.g.
/// `103 Early Hints` (RFC 8297) with `Link` fields, or `102 Processing`.
///
/// Sent through an ``HTTPInterimResponseWriter``; it has no body, and the server writes no
/// `Date`, `Content-Length` or `Connection` for it (a handler's `Content-Length`, `Connection` and
/// `Transfer-Encoding` fields are dropped, as for final responses).
public struct HTTPServerInterimResponse: Sendable {
    /// The status code: 100–199 except 101 (the server does not switch protocols).
    public var status: HTTPStatus
    /// The reason phrase; defaults to the standard phrase for ``status`` (empty when unknown).
    public var reasonPhrase: String
    /// The header fields in order, names case-preserved.
    public var headerFields: HTTPFields

    /// Creates an interim response; `reasonPhrase` defaults to ``MediaCore/HTTPStatus/reasonPhrase``.
    public init(status: HTTPStatus, reasonPhrase: String? = nil, headerFields: HTTPFields = []) {
        self.status = status
        self.reasonPhrase = reasonPhrase ?? status.reasonPhrase
        self.headerFields = headerFields
    }

    /// Whether ``status`` may be sent as an interim response: 100–199, not 101.
    public var isSendable: Bool { (100...199).contains(status) && status != 101 }
}
