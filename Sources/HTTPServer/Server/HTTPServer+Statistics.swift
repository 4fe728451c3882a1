import Synchronization

extension HTTPServer {
    /// Counters since ``HTTPServer/start()``, for metrics (e.g. Prometheus counters and a gauge).
    public struct Statistics: Sendable, Hashable {
        /// Connections admitted.
        public var acceptedConnections: Int
        /// Connections answered `503` because ``Configuration/maxConnections`` were open, or
        /// ``Configuration/maxConnectionsPerPeer`` from the same address.
        public var refusedConnections: Int
        /// Of ``refusedConnections``, those refused by the per-address cap.
        public var refusedPerPeer: Int
        /// Idle connections closed to make room near the cap (idle-first).
        public var shedConnections: Int
        /// Requests refused by ``HTTPHandling/refusesBody(_:)`` before their body was read.
        public var refusedBodies: Int
        /// Connections open now.
        public var openConnections: Int
        /// Requests answered by the handler.
        public var requests: Int
        /// Requests answered with a parse error (400, 413, 414, 431, 501, 505).
        public var parseErrors: Int
        /// Connections closed by the header timeout (`408`, or silently when nothing arrived),
        /// the idle timeout, or a failed write (write timeout or peer reset).
        public var timeouts: Int
        /// Requests whose client closed the connection (or half-closed it) before the handler answered: their
        /// `ClientPresence` was marked gone (work not yet started for them is dropped) and the answer discarded.
        public var abandonedRequests: Int = 0

        public init(
            acceptedConnections: Int = 0, refusedConnections: Int = 0, openConnections: Int = 0, requests: Int = 0,
            parseErrors: Int = 0, timeouts: Int = 0, refusedPerPeer: Int = 0, shedConnections: Int = 0,
            refusedBodies: Int = 0, abandonedRequests: Int = 0
        ) {
            self.abandonedRequests = abandonedRequests
            self.refusedBodies = refusedBodies
            self.refusedPerPeer = refusedPerPeer
            self.shedConnections = shedConnections
            self.acceptedConnections = acceptedConnections
            self.refusedConnections = refusedConnections
            self.openConnections = openConnections
            self.requests = requests
            self.parseErrors = parseErrors
            self.timeouts = timeouts
        }
    }

    /// A snapshot of the counters.
    public var statistics: Statistics {
        Statistics(
            acceptedConnections: counters.accepted.load(ordering: .relaxed),
            refusedConnections: counters.refused.load(ordering: .relaxed),
            openConnections: connectionCount,
            requests: counters.requests.load(ordering: .relaxed),
            parseErrors: counters.parseErrors.load(ordering: .relaxed),
            timeouts: counters.timeouts.load(ordering: .relaxed),
            refusedPerPeer: counters.refusedPerPeer.load(ordering: .relaxed),
            shedConnections: counters.shed.load(ordering: .relaxed),
            refusedBodies: counters.bodiesRefused.load(ordering: .relaxed),
            abandonedRequests: counters.abandoned.load(ordering: .relaxed))
    }

    /// The live counters behind ``statistics``.
    final class Counters: Sendable {
        let accepted = Atomic<Int>(0)
        let refused = Atomic<Int>(0)
        let requests = Atomic<Int>(0)
        let parseErrors = Atomic<Int>(0)
        let timeouts = Atomic<Int>(0)
        let refusedPerPeer = Atomic<Int>(0)
        let shed = Atomic<Int>(0)
        let bodiesRefused = Atomic<Int>(0)
        let abandoned = Atomic<Int>(0)
    }
}
