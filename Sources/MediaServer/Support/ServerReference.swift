import HTTPServer
import Synchronization

/// The ``HTTPServer/HTTPServer`` a ``MediaHTTPHandler`` runs in, attached after both exist (the
/// server is created with its handler), so the handler can report the server's statistics.
public final class ServerReference: Sendable {
    private let server = Mutex<HTTPServer?>(nil)

    /// Nothing attached yet.
    public init() {}

    /// Attaches `server` (replacing any earlier one).
    public func attach(_ server: HTTPServer) {
        self.server.withLock { $0 = server }
    }

    /// The attached server's counters, or `nil` when none is attached.
    public var statistics: HTTPServer.Statistics? {
        server.withLock { $0 }?.statistics
    }
}
