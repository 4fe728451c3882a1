import CHTTPServerLinux
import Glibc
import MediaCore
import Synchronization

/// One loop thread of ``HTTPServer``: an epoll instance, an eventfd that wakes it, a mailbox, and
/// the connections it owns (each an ``HTTPConnection`` state machine touched only by this thread).
///
/// Other threads talk to a loop only through ``post(_:)``: the acceptor hands over new sockets,
/// async handler tasks hand back responses (and interim responses before them), ``HTTPServer/stop()`` announces the stop. Deadlines
/// (header, idle, write, lingering close) live in the connections; the loop sweeps them when the
/// earliest one is due, and that time is the `epoll_wait` timeout.
final class EventLoop: @unchecked Sendable {
    /// What other threads tell the loop.
    enum Message {
        /// An accepted, admitted socket (already non-blocking, `TCP_NODELAY`) and its peer text.
        case accepted(fd: Int32, remoteAddress: String, peer: String)
        /// The answer of an async handler for `connection`.
        case response(ConnectionReference, HTTPServerResponse)
        /// An interim response (serialized) of the async exchange `exchange` of `connection`.
        case interim(ConnectionReference, exchange: Int, bytes: [UInt8])
        /// The server is stopping: close idle connections, exit once none is left.
        case stop
        /// The connection cap is near: close up to this many idle connections, longest idle first.
        case shedIdle(Int)
    }

    /// Carries a loop-confined connection through the mailbox; only the owning loop dereferences it.
    struct ConnectionReference: @unchecked Sendable {
        let connection: HTTPConnection
    }

    static let wakeToken = UInt64.max
    static let maxEvents: Int32 = 256
    /// Bytes read per `recv`; one buffer per loop, shared by its connections.
    static let receiveBufferBytes = 65_536

    let server: HTTPServer
    /// ``HTTPServer/Configuration`` timeouts in ms and flags, read once (not per request).
    let readHeaderMilliseconds: Int
    let idleMilliseconds: Int
    let writeMilliseconds: Int
    let requestMilliseconds: Int
    /// ``HTTPServer/Configuration/minTransferRate``; 0: off.
    let minTransferRate: Int
    let addsDateField: Bool
    let epollFD: Int32
    let wakeFD: Int32
    private let mailbox = Mutex<[Message]>([])

    // Loop-thread state.
    var connections: [HTTPConnection?] = []
    var openCount = 0
    var nextSerial: UInt32 = 0
    /// Monotonic ms of the earliest connection deadline (or later); `Int.max` when none.
    var nextSweep = Int.max
    var stopping = false
    let receiveBuffer = UnsafeMutableRawBufferPointer.allocate(byteCount: EventLoop.receiveBufferBytes, alignment: 16)
    /// Reused for every response head this loop serializes.
    var headBuffer: [UInt8] = []
    var dateSecond: Int64 = -1
    var dateText = ""

    /// Creates the epoll instance and the wake eventfd.
    /// - Throws: ``HTTPServerError`` `socketFailed`.
    init(server: HTTPServer) throws(HTTPServerError) {
        let epollFD = Epoll.create()
        guard epollFD >= 0 else { throw Socket.failure(.socketFailed, "epoll_create1") }
        let wakeFD = Epoll.makeEventFD()
        guard wakeFD >= 0 else {
            let error = Socket.failure(.socketFailed, "eventfd")
            close(epollFD)
            throw error
        }
        guard Epoll.add(epollFD, wakeFD, events: Epoll.readable, token: Self.wakeToken) else {
            let error = Socket.failure(.socketFailed, "epoll_ctl")
            close(epollFD)
            close(wakeFD)
            throw error
        }
        self.server = server
        let configuration = server.configuration
        readHeaderMilliseconds = configuration.readHeaderTimeout.pollMilliseconds
        idleMilliseconds = configuration.idleTimeout.pollMilliseconds
        writeMilliseconds = configuration.writeTimeout.pollMilliseconds
        requestMilliseconds = configuration.requestTimeout.pollMilliseconds
        minTransferRate = max(0, configuration.minTransferRate)
        addsDateField = configuration.addsDateField
        self.epollFD = epollFD
        self.wakeFD = wakeFD
        headBuffer.reserveCapacity(1_024)
    }

    deinit {
        close(epollFD)
        close(wakeFD)
        receiveBuffer.deallocate()
    }

    /// Queues `message` and wakes the loop (one eventfd write per batch). Any thread.
    func post(_ message: Message) {
        let wasEmpty = mailbox.withLock { box -> Bool in
            let wasEmpty = box.isEmpty
            box.append(message)
            return wasEmpty
        }
        if wasEmpty { Epoll.signal(wakeFD) }
    }

    /// The loop: wait for readiness or the earliest deadline, dispatch, sweep deadlines; returns
    /// once stopping with no connection left.
    func run() {
        let events = UnsafeMutablePointer<epoll_event>.allocate(capacity: Int(Self.maxEvents))
        defer { events.deallocate() }
        while !(stopping && openCount == 0) {
            var timeout: Int32 = -1
            if nextSweep != Int.max {
                timeout = Int32(clamping: max(0, nextSweep - MonotonicClock.nowMilliseconds()))
            }
            let count = epoll_wait(epollFD, events, Self.maxEvents, timeout)
            if count < 0 {
                if errno == EINTR { continue }
                break
            }
            for index in 0..<Int(count) {
                let token = events[index].data.u64
                let flags = events[index].events
                if token == Self.wakeToken {
                    Epoll.drain(wakeFD)
                    drainMailbox()
                    continue
                }
                let fd = Int(truncatingIfNeeded: token & 0xFFFF_FFFF)
                guard fd < connections.count, let connection = connections[fd],
                    connection.serial == UInt32(truncatingIfNeeded: token >> 32)
                else { continue }
                connection.handle(events: flags)
            }
            if nextSweep != Int.max {
                let now = MonotonicClock.nowMilliseconds()
                if now >= nextSweep { sweep(now: now) }
            }
        }
        // Stopped and empty; late async answers for closed connections are dropped by their state.
    }

    func drainMailbox() {
        let messages = mailbox.withLock { box -> [Message] in
            let taken = box
            box.removeAll(keepingCapacity: true)
            return taken
        }
        for message in messages {
            switch message {
            case .accepted(let fd, let remoteAddress, let peer):
                register(fd: fd, remoteAddress: remoteAddress, peer: peer)
            case .response(let reference, let response):
                reference.connection.completeAsync(response)
            case .interim(let reference, let exchange, let bytes):
                reference.connection.writeInterim(bytes, exchange: exchange)
            case .stop:
                stopping = true
                for case let connection? in connections { connection.closeIfIdle() }
            case .shedIdle(let count):
                shedIdle(count)
            }
        }
    }

    /// Takes ownership of an accepted socket: epoll registration, then the header deadline.
    func register(fd: Int32, remoteAddress: String, peer: String) {
        nextSerial &+= 1
        let connection = HTTPConnection(fd: fd, serial: nextSerial, remoteAddress: remoteAddress, peer: peer, loop: self)
        let slot = Int(fd)
        if slot >= connections.count {
            connections.append(contentsOf: repeatElement(nil, count: slot - connections.count + 1))
        }
        guard Epoll.add(epollFD, fd, events: Epoll.readable, token: connection.token) else {
            server.closeConnection(fd)
            return
        }
        connections[slot] = connection
        openCount += 1
        connection.process()
    }

    /// Forgets `connection` and closes its socket (which also removes it from the epoll set).
    func remove(_ connection: HTTPConnection) {
        let slot = Int(connection.fd)
        if slot < connections.count, connections[slot] === connection {
            connections[slot] = nil
            openCount -= 1
        }
        server.closeConnection(connection.fd)
    }

    /// Closes up to `count` idle keep-alive connections (waiting for their next request), the one whose idle deadline
    /// comes first (the longest idle) first. New connections that have sent nothing are left to the read-header timeout.
    func shedIdle(_ count: Int) {
        let idle = connections.compactMap { $0 }.filter(\.isIdleKeepAlive).sorted { $0.deadline < $1.deadline }
        for connection in idle.prefix(count) {
            server.counters.shed.add(1, ordering: .relaxed)
            connection.close()
        }
    }

    /// Milliseconds `bytes` take at ``minTransferRate``; 0 with the rate 0 (no allowance for size).
    func milliseconds(atMinimumRate bytes: Int) -> Int {
        minTransferRate > 0 ? bytes / minTransferRate * 1_000 + bytes % minTransferRate * 1_000 / minTransferRate : 0
    }

    /// Records a connection deadline so the loop wakes for it.
    func noteDeadline(_ deadline: Int) {
        if deadline < nextSweep { nextSweep = deadline }
    }

    /// Expires every connection whose deadline has passed and finds the next one.
    func sweep(now: Int) {
        var next = Int.max
        for slot in connections.indices {
            guard let connection = connections[slot] else { continue }
            if connection.deadline <= now { connection.expire() }
            if let current = connections[slot], current.deadline < next { next = current.deadline }
        }
        nextSweep = next
    }

    /// The `Date` value, formatted at most once per second per loop; `nil` when disabled.
    func currentDate() -> String? {
        guard addsDateField else { return nil }
        let now = WallClock.nowSeconds()
        if now != dateSecond {
            dateSecond = now
            dateText = HTTPDate.format(now)
        }
        return dateText
    }
}
