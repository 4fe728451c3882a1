/// The application behind an ``HTTPServer``: turns each request into a response.
///
/// The server calls ``handleSync(_:)`` first on the connection's own thread; when it returns
/// `nil`, the server runs ``handle(_:)`` in a detached task and blocks only that connection's
/// thread (never the cooperative pool) until it answers.
public protocol HTTPHandling: Sendable {
    /// Answers a request. Called for every request ``handleSync(_:)`` declined.
    func handle(_ request: HTTPServerRequest) async -> HTTPServerResponse

    /// A synchronous fast path (e.g. a memory-cache hit). Return `nil` to fall back to
    /// ``handle(_:)``. Must not block for long: it runs on the connection's thread.
    /// Default: returns `nil`.
    func handleSync(_ request: HTTPServerRequest) -> HTTPServerResponse?
}

extension HTTPHandling {
    public func handleSync(_ request: HTTPServerRequest) -> HTTPServerResponse? { nil }
}
