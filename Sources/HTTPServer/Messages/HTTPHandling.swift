import MediaCore
/// The application behind an ``HTTPServer``: turns each request into a response.
///
/// The server calls ``handleSync(_:)`` first, inline on the event-loop thread that owns the
/// connection; when it returns `nil`, the server runs ``handle(_:)`` in a detached task whose answer
/// is posted back to that loop. Neither the loop nor the cooperative pool waits for the task.
/// The server calls ``handle(_:interim:)``, whose default calls ``handle(_:)``: a handler that sends
/// interim (1xx) responses implements the former.
public protocol HTTPHandling: Sendable {
    /// Answers a request. Called for every request ``handleSync(_:)`` declined (through the default
    /// ``handle(_:interim:)``).
    func handle(_ request: HTTPServerRequest) async -> HTTPServerResponse

    /// Answers a request, with a way to send interim responses (RFC 9110 §15.2, e.g. `103 Early Hints`)
    /// before the final one. `interim` is ``HTTPInterimResponseWriter/disabled`` for HTTP/1.0 clients.
    /// Default: ignores `interim` and calls ``handle(_:)``.
    func handle(_ request: HTTPServerRequest, interim: HTTPInterimResponseWriter) async -> HTTPServerResponse

    /// A synchronous fast path (e.g. a memory-cache hit). Return `nil` to fall back to
    /// ``handle(_:)``. Must not block for long: it runs on an event-loop thread, and every other
    /// connection of that loop waits while it runs.
    /// Default: returns `nil`.
    func handleSync(_ request: HTTPServerRequest) -> HTTPServerResponse?

    /// ``handleSync(_:)`` that may leave what it learned for the asynchronous path: when it declines (`nil`),
    /// `handoff` becomes the request's ``HTTPServerRequest/handoff`` in ``handle(_:interim:)``. The server calls
    /// this one. Default: ``handleSync(_:)``, leaving `handoff` `nil`.
    func handleSync(_ request: HTTPServerRequest, handoff: inout (any AnyObject & Sendable)?) -> HTTPServerResponse?

    /// Told, on the event-loop thread, that the server answered without the handler: a request it could not
    /// parse (`status` 400, 413, 414, 431, 501 or 505) or whose head did not arrive in time (408), with
    /// `bodyBytes` of problem+json. No request is available (it was not parsed). For access logs; must return
    /// at once. Default: does nothing.
    func serverAnswered(status: HTTPStatus, bodyBytes: Int)

    /// Asked, on the event-loop thread, when a request's head is complete and its body has not all arrived: a
    /// response refuses the request before its body is read (`400`, `404`, `405`, `401`…), the connection then
    /// closes without reading the rest (docs/http-server.md, "Bodies nobody reads"); `nil` reads the body and
    /// handles the request as usual. `head` has every header field and no body. Must return at once.
    /// Default: `nil`.
    func refusesBody(_ head: HTTPServerRequest) -> HTTPServerResponse?
}

extension HTTPHandling {
    public func handle(_ request: HTTPServerRequest, interim: HTTPInterimResponseWriter) async -> HTTPServerResponse {
        await handle(request)
    }

    public func handleSync(_ request: HTTPServerRequest) -> HTTPServerResponse? { nil }

    public func handleSync(_ request: HTTPServerRequest, handoff: inout (any AnyObject & Sendable)?) -> HTTPServerResponse? {
        handleSync(request)
    }

    public func serverAnswered(status: HTTPStatus, bodyBytes: Int) {}

    public func refusesBody(_ head: HTTPServerRequest) -> HTTPServerResponse? { nil }
}
