import Glibc
import Synchronization

/// An HTTP/1.1 server on POSIX sockets: one acceptor thread plus one thread per connection.
///
/// Each connection thread reads with `poll(2)` deadlines (header, idle and write timeouts),
/// parses with ``HTTPRequestParser``, calls the ``HTTPHandling`` handler (sync fast path first,
/// else an async task it waits for) and writes each response with one `send`. Pipelined requests
/// are answered in order. Over ``Configuration/maxConnections`` a new connection gets `503` and
/// is closed. `SIGPIPE` is avoided with `MSG_NOSIGNAL`.
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
        var port = 0
        var connections: Set<Int32> = []
        var wake: (read: Int32, write: Int32) = (-1, -1)
        var drained: (read: Int32, write: Int32) = (-1, -1)
    }

    /// The configuration given at creation.
    public let configuration: Configuration
    let handler: any HTTPHandling
    let state = Mutex(State())
    let stopping = Atomic<Bool>(false)
    let counters = Counters()

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
        state.withLock {
            $0.listenFD = listening.fd
            $0.port = listening.port
            $0.wake = wake
            $0.drained = drained
        }
        guard let thread = PosixThread.spawn(stackBytes: 262_144, detached: false, { [self] in
            acceptLoop(listenFD: listening.fd, wakeFD: wake.read)
        }) else {
            for fd in opened + [listening.fd] { close(fd) }
            state.withLock {
                $0 = State()
            }
            throw HTTPServerError(code: .threadFailed, message: "could not create the acceptor thread")
        }
        state.withLock {
            $0.phase = .running
            $0.acceptor = thread
        }
        return listening.port
    }

    /// Stops gracefully and returns when done: stops accepting, closes idle keep-alive connections,
    /// lets in-flight requests finish (their responses carry `Connection: close`) for up to
    /// ``Configuration/drainTimeout``, then shuts down the sockets still open.
    /// Safe to call more than once and from any thread (not from a handler).
    public func stop() {
        let started = state.withLock { current -> (acceptor: pthread_t?, wake: Int32, drained: Int32)? in
            guard current.phase == .running else { return nil }
            current.phase = .stopping
            return (current.acceptor, current.wake.write, current.drained.read)
        }
        guard let started else { return }
        stopping.store(true, ordering: .sequentiallyConsistent)
        Socket.signal(started.wake)
        if let acceptor = started.acceptor { pthread_join(acceptor, nil) }

        let deadline = MonotonicClock.nowMilliseconds() + configuration.drainTimeout.pollMilliseconds
        while !state.withLock({ $0.connections.isEmpty }) {
            let remaining = deadline - MonotonicClock.nowMilliseconds()
            if remaining <= 0 { break }
            var entry = pollfd(fd: started.drained, events: Int16(POLLIN), revents: 0)
            _ = poll(&entry, 1, Int32(clamping: remaining))
        }
        state.withLock {
            for fd in $0.connections { shutdown(fd, Int32(SHUT_RDWR)) }
            $0.phase = .stopped
        }
    }

    var isStopping: Bool { stopping.load(ordering: .relaxed) }

    /// Removes and closes a connection; wakes ``stop()`` when the last one goes.
    func closeConnection(_ fd: Int32) {
        let signalFD = state.withLock { current -> Int32? in
            current.connections.remove(fd)
            close(fd)
            return current.connections.isEmpty && current.phase == .stopping ? current.drained.write : nil
        }
        if let signalFD { Socket.signal(signalFD) }
    }

    /// Answers one request: the handler's sync fast path, else its async path on a task while this
    /// (connection) thread waits.
    func respond(to request: HTTPServerRequest) -> HTTPServerResponse {
        if let response = handler.handleSync(request) { return response }
        let waiter = ResponseWaiter()
        let handler = self.handler
        Task.detached { waiter.resume(await handler.handle(request)) }
        return waiter.wait()
    }
}
