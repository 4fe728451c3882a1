import Glibc
import Synchronization

/// An HTTP/1.1 server on Linux epoll: one acceptor thread and ``Configuration/eventLoopCount``
/// event-loop threads, each connection a small state machine owned by one loop.
///
/// The acceptor hands admitted sockets to the loops round-robin. A loop reads non-blocking
/// sockets when epoll reports them readable, parses with ``HTTPRequestParser``, answers
/// ``HTTPHandling/handleSync(_:)`` inline, or runs ``HTTPHandling/handle(_:)`` in a task whose
/// answer is posted back to the loop (mailbox + eventfd), and writes head and body with one
/// gathered `sendmsg`, resuming partial writes on `EPOLLOUT`. Header, idle and write timeouts are
/// per-connection deadlines swept by the loop (the earliest one is the `epoll_wait` timeout).
/// Pipelined requests are answered in order, one in flight per connection. Over
/// ``Configuration/maxConnections`` a new connection gets `503` and is closed. `SIGPIPE` is
/// avoided with `MSG_NOSIGNAL`.
///
/// ```swift
/// let server = HTTPServer(configuration: .init(port: 0), handler: MyHandler())
/// let port = try server.start()
/// ...
/// server.stop()
/// ```
public final class HTTPServer: Sendable {
    enum Phase: Sendable { case created, starting, running, stopping, stopped }

    struct State: Sendable {
        var phase = Phase.created
        var listenFD: Int32 = -1
        var acceptor: pthread_t?
        var loops: [EventLoop] = []
        var port = 0
        /// Open client sockets and the address of each peer (``Socket/describe(_:)``, port excluded).
        var connections: [Int32: String] = [:]
        /// Open connections per peer address (only addresses with at least one).
        var peerCounts: [String: Int] = [:]
        var wake: (read: Int32, write: Int32) = (-1, -1)
        var drained: (read: Int32, write: Int32) = (-1, -1)
    }

    /// The configuration given at creation.
    public let configuration: Configuration
    let handler: any HTTPHandling
    let state = Mutex(State())
    let stopping = Atomic<Bool>(false)
    let counters = Counters()
    /// Request body bytes held: by every connection together, and per peer address (``Configuration/maxBufferedBodyBytes``,
    /// ``Configuration/maxBufferedBodyBytesPerPeer``).
    let bodyBytes = Mutex<(total: Int, byPeer: [String: Int])>((0, [:]))

    /// Books `delta` more body bytes for `peer`; `false` when the total or the peer's share is over its limit (the
    /// bytes stay booked until released).
    func holdBodyBytes(_ delta: Int, peer: String) -> Bool {
        let uncapped = configuration.uncappedPeers.contains(peer)
        return bodyBytes.withLock { held in
            held.total += delta
            let mine = (held.byPeer[peer] ?? 0) + delta
            held.byPeer[peer] = mine
            return held.total <= configuration.maxBufferedBodyBytes
                && (uncapped || mine <= configuration.maxBufferedBodyBytesPerPeer)
        }
    }

    /// Gives `bytes` of `peer`'s body bytes back.
    func releaseBodyBytes(_ bytes: Int, peer: String) {
        bodyBytes.withLock { held in
            held.total -= bytes
            let left = (held.byPeer[peer] ?? 0) - bytes
            held.byPeer[peer] = left > 0 ? left : nil
        }
    }

    /// Creates a server; nothing is bound until ``start()``.
    public init(configuration: Configuration = Configuration(), handler: any HTTPHandling) {
        self.configuration = configuration
        self.handler = handler
    }

    deinit {
        let current = state.withLock { $0 }
        for fd in [current.wake.read, current.wake.write, current.drained.read, current.drained.write] where fd >= 0 {
            close(fd)
        }
    }

    /// The bound TCP port once started (useful with port 0), else 0.
    public var port: Int { state.withLock { $0.port } }

    /// The number of open client connections.
    public var connectionCount: Int { state.withLock { $0.connections.count } }

    /// Binds, listens and starts the acceptor thread.
    /// - Returns: the bound port (the ephemeral one when ``Configuration/port`` is 0).
    /// - Throws: ``HTTPServerError`` with code `invalidAddress`, `socketFailed`, `bindFailed`,
    ///   `listenFailed`, `threadFailed` or `alreadyStarted`.
    @discardableResult
    public func start() throws(HTTPServerError) -> Int {
        let isFresh = state.withLock { current -> Bool in
            guard current.phase == .created else { return false }
            current.phase = .starting
            return true
        }
        guard isFresh else { throw HTTPServerError(code: .alreadyStarted, message: "the server was already started") }
        let wake: (read: Int32, write: Int32)
        let drained: (read: Int32, write: Int32)
        let listening: (fd: Int32, port: Int)
        var opened: [Int32] = []
        do {
            wake = try Socket.makePipe()
            opened += [wake.read, wake.write]
            drained = try Socket.makePipe()
            opened += [drained.read, drained.write]
            listening = try Socket.listen(
                host: configuration.host, port: configuration.port, backlog: configuration.backlog)
        } catch {
            for fd in opened { close(fd) }
            state.withLock { $0.phase = .created }  // a failed start may be retried
            throw error
        }
        var loops: [EventLoop] = []
        do {
            for _ in 0..<max(1, configuration.eventLoopCount) { loops.append(try EventLoop(server: self)) }
        } catch {
            for fd in opened + [listening.fd] { close(fd) }
            state.withLock { $0.phase = .created }
            throw error
        }
        state.withLock {
            $0.listenFD = listening.fd
            $0.port = listening.port
            $0.wake = wake
            $0.drained = drained
            $0.loops = loops
        }
        let loopsToStart = loops
        var started = 0
        for (index, loop) in loopsToStart.enumerated() {
            guard PosixThread.spawn(name: "http-loop-\(index)", stackBytes: configuration.threadStackBytes, detached: true,
                                    { loop.run() }) != nil
            else { break }
            started += 1
        }
        let acceptor = started == loopsToStart.count
            ? PosixThread.spawn(name: "http-accept", stackBytes: 262_144, detached: false, { [self] in
                acceptLoop(listenFD: listening.fd, wakeFD: wake.read, loops: loopsToStart)
            }) : nil
        guard let acceptor else {
            for loop in loopsToStart.prefix(started) { loop.post(.stop) }  // no connections yet: they exit at once
            for fd in opened + [listening.fd] { close(fd) }
            state.withLock {
                $0 = State()
            }
            throw HTTPServerError(
                code: .threadFailed,
                message: started == loopsToStart.count ? "could not create the acceptor thread" : "could not create an event-loop thread")
        }
        state.withLock {
            $0.phase = .running
            $0.acceptor = acceptor
        }
        return listening.port
    }

    /// Stops gracefully and returns when done: stops accepting, closes idle keep-alive connections,
    /// lets in-flight requests finish (their responses carry `Connection: close`) for up to
    /// ``Configuration/drainTimeout``, then shuts down the sockets still open.
    /// Safe to call more than once and from any thread (not from a handler).
    public func stop() {
        let started = state.withLock {
            current -> (acceptor: pthread_t?, wake: Int32, drained: Int32, loops: [EventLoop])? in
            guard current.phase == .running else { return nil }
            current.phase = .stopping
            return (current.acceptor, current.wake.write, current.drained.read, current.loops)
        }
        guard let started else { return }
        stopping.store(true, ordering: .sequentiallyConsistent)
        Socket.signal(started.wake)
        if let acceptor = started.acceptor { pthread_join(acceptor, nil) }
        // Every accepted socket was posted before this: each loop closes its idle connections,
        // lets the others finish, and exits when it has none left.
        for loop in started.loops { loop.post(.stop) }

        let deadline = MonotonicClock.nowMilliseconds() + configuration.drainTimeout.pollMilliseconds
        while !state.withLock({ $0.connections.isEmpty }) {
            let remaining = deadline - MonotonicClock.nowMilliseconds()
            if remaining <= 0 { break }
            var entry = pollfd(fd: started.drained, events: Int16(POLLIN), revents: 0)
            _ = poll(&entry, 1, Int32(clamping: remaining))
        }
        state.withLock {
            // The loops see the hang-up of each socket still open and close it.
            for fd in $0.connections.keys { shutdown(fd, Int32(SHUT_RDWR)) }
            $0.phase = .stopped
            $0.loops = []  // running loops keep themselves (and the server) alive until they exit
        }
    }

    var isStopping: Bool { stopping.load(ordering: .relaxed) }

    /// Removes and closes a connection; wakes ``stop()`` when the last one goes.
    func closeConnection(_ fd: Int32) {
        let signalFD = state.withLock { current -> Int32? in
            if let peer = current.connections.removeValue(forKey: fd) {
                let left = (current.peerCounts[peer] ?? 1) - 1
                current.peerCounts[peer] = left > 0 ? left : nil
            }
            close(fd)
            return current.connections.isEmpty && current.phase == .stopping ? current.drained.write : nil
        }
        if let signalFD { Socket.signal(signalFD) }
    }
}
