import Synchronization

/// Whether the client of the request being handled is still there: the HTTP server marks it gone when the client
/// closes (or half-closes) its connection before the answer, and work that has not started yet for that request, such
/// as a queued image transform, is dropped instead of done for nobody. Nothing else is interrupted: an origin fetch
/// in flight finishes and is stored for the next request.
///
/// The server runs each request's handler with ``current`` bound to the request's presence (a task-local value,
/// seen by everything the handler awaits in its own task); elsewhere it is `nil`.
public final class ClientPresence: Sendable {
    private let gone = Atomic<Bool>(false)

    public init() {}

    /// The presence of the request the current task handles, `nil` outside a server's handler.
    @TaskLocal public static var current: ClientPresence?

    /// Whether the client went away before its answer.
    public var isGone: Bool { gone.load(ordering: .acquiring) }

    /// The client went away (called by the server).
    public func markGone() { gone.store(true, ordering: .releasing) }
}
