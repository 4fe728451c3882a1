/// Lets an async handler send interim (1xx) responses on its request's connection before it returns
/// the final response (RFC 9110 §15.2). The server passes one to
/// ``HTTPHandling/handle(_:interim:)``.
///
/// - Only to HTTP/1.1 clients: for an HTTP/1.0 request the writer is ``isEnabled`` `false` and
///   ``send(_:)`` does nothing (RFC 9110 §15.2: a server must not send a 1xx to an HTTP/1.0 client).
/// - In order: each interim response is written before the final response and after the ones sent
///   earlier. ``send(_:)`` may be called from any thread (it posts to the connection's event loop and
///   does not wait).
/// - Bounded to the exchange: once the handler has returned its final response, or the connection has
///   closed, later calls do nothing (nothing can reach the next request on a keep-alive connection).
/// - When the client does not read, at most 64 KiB of interim responses wait in memory; further ones are
///   dropped whole (interim responses are advisory), never cut.
public struct HTTPInterimResponseWriter: Sendable {
    struct Target: Sendable {
        let loop: EventLoop
        let reference: EventLoop.ConnectionReference
        /// The connection's ``HTTPConnection/servedRequests`` when the exchange began.
        let exchange: Int
    }

    let target: Target?

    init(target: Target?) {
        self.target = target
    }

    /// A writer that sends nothing (HTTP/1.0 clients, the sync path, in-process callers and tests).
    public static let disabled = HTTPInterimResponseWriter(target: nil)

    /// Whether interim responses can reach this client (an HTTP/1.1 request served by an ``HTTPServer``).
    public var isEnabled: Bool { target != nil }

    /// Queues `response` for the connection, ahead of the final response.
    /// - Returns: `false` (nothing queued) when the writer is disabled or the status is not a sendable
    ///   interim status (``HTTPServerInterimResponse/isSendable``); `true` otherwise, which does not
    ///   promise delivery (the exchange may end, or the connection close, first).
    @discardableResult
    public func send(_ response: HTTPServerInterimResponse) -> Bool {
        guard let target, response.isSendable else { return false }
        let bytes = HTTPResponseSerializer.serializeInterim(response)
        target.loop.post(.interim(target.reference, exchange: target.exchange, bytes: bytes))
        return true
    }
}
