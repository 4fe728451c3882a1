import HTTPServer

/// Reason phrases for printed status lines (RFC 9110 §15), from ``HTTPServer/HTTPServerResponse``.
enum HTTPStatusText {
    /// `OK` for 200, `Not Modified` for 304; `""` for unknown codes.
    static func reason(_ status: Int) -> String {
        HTTPServerResponse.reasonPhrase(for: status)
    }
}
