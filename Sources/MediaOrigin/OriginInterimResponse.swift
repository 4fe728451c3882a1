import MediaCore

/// An interim (1xx) response an origin sent before its final response (RFC 9110 §15.2), e.g.
/// `103 Early Hints` (RFC 8297) with `Link` fields, or `102 Processing`. Never stored, never part of
/// the final ``OriginResponse``.
public struct OriginInterimResponse: Sendable, Hashable {
    /// Receives the interim responses of one fetch (``OriginFetching/fetch(_:interim:)``).
    public typealias Handler = @Sendable (OriginInterimResponse) -> Void

    /// The status code, 100–199 (never 101: a transport that does not switch protocols reports none).
    public var status: HTTPStatus
    /// The interim response's own fields, in order, without hop-by-hop ones (RFC 9110 §7.6.1:
    /// `Connection` and the names it lists, `Keep-Alive`, `Transfer-Encoding`, `TE`, `Trailer`,
    /// `Upgrade`, `Proxy-*`).
    public var fields: HTTPFields

    public init(status: HTTPStatus, fields: HTTPFields = HTTPFields()) {
        self.status = status
        self.fields = fields
    }
}
