import Glibc
import MediaCore

/// One client connection: a state machine around ``HTTPRequestParser``, owned and driven by one
/// ``EventLoop`` thread (never touched by another thread).
///
/// Phases: `reading` (a request head or body, or waiting for the next request) → either the
/// handler's sync answer is written at once, or `awaitingHandler` (an async task runs `handle`;
/// no input is read) → `writing` (only when the socket buffer was full: resumed on `EPOLLOUT`)
/// → `reading` again, or `lingering` (after a `Connection: close` answer: write side shut,
/// input discarded for ≤ 500 ms / 1 MiB) → `closed`. One request is in flight per connection;
/// pipelined requests stay buffered in the parser and are answered in order.
final class HTTPConnection {
    enum Phase { case reading, awaitingHandler, writing, lingering, closed }

    /// How the in-flight request shapes its response.
    struct Exchange {
        var headRequest = false
        var version = HTTPVersion.http1_1
        var keepAlive = true
    }

    let fd: Int32
    let serial: UInt32
    let remoteAddress: String
    /// The peer's address without the port (the per-address caps' key).
    let peer: String
    unowned(unsafe) let loop: EventLoop
    var parser: HTTPRequestParser
    var phase = Phase.reading
    var servedRequests = 0
    var exchange = Exchange()
    /// Monotonic ms by which the current request head (or the next body bytes) must arrive.
    var requestDeadline: Int?
    /// Monotonic ms of the current request's first byte (or of the accept, for a new connection's first request),
    /// and of the end of its head once its body is being read.
    var requestStarted: Int?
    var bodyStarted: Int?
    /// Monotonic ms of the current response's first partial write, and the bytes written since.
    var writeStarted = 0
    var writeSent = 0
    /// Whether the handler was asked about the body of the request being received (``HTTPHandling/refusesBody(_:)``).
    var bodyChecked = false
    /// Body bytes of the current request booked against ``HTTPServer/Configuration/maxBufferedBodyBytes``; released
    /// once its response is handed to the socket (or the connection closes).
    var heldBodyBytes = 0
    /// Monotonic ms of this connection's current deadline (header, idle, write or linger); `Int.max` when none.
    var deadline = Int.max
    /// The epoll events currently registered.
    var interest = Epoll.readable

    // The unsent rest of a response (only after a partial write).
    var pendingHead: [UInt8] = []
    var pendingHeadOffset = 0
    var pendingBody: [UInt8] = []
    var pendingBodyOffset = 0
    /// Where the pending body ends in ``pendingBody`` (a ranged body ends before the buffer does).
    var pendingBodyEnd = 0
    /// What keeps the pending body's buffer shared until it is sent (``HTTPServerResponse/content``'s owner).
    var pendingBodyOwner: (any AnyObject & Sendable)?
    var closeAfterWrite = false
    /// Whether the client of the request whose handler runs (``startAsync(_:)``) is still there: marked gone when it
    /// closes first.
    var presence: ClientPresence?
    /// Interim responses the socket has not taken yet while the handler runs (``writeInterim(_:exchange:)``).
    var interimBacklog: [UInt8] = []
    /// Whether a failed write of the pending response counts as a timeout (handler answers do).
    var writeFailureCounts = false
    var lingerDiscarded = 0

    static let lingerMilliseconds = 500
    static let lingerMaxBytes = 1 << 20

    init(fd: Int32, serial: UInt32, remoteAddress: String, peer: String, loop: EventLoop) {
        self.peer = peer
        self.fd = fd
        self.serial = serial
        self.remoteAddress = remoteAddress
        self.loop = loop
        self.parser = HTTPRequestParser(configuration: loop.server.configuration.parser)
    }

    /// The epoll token: serial in the high half, descriptor in the low half.
    var token: UInt64 { UInt64(serial) << 32 | UInt64(UInt32(bitPattern: fd)) }

    // MARK: - Events

    /// Dispatches epoll readiness by phase.
    func handle(events: UInt32) {
        switch phase {
        case .reading:
            receive()
        case .writing:
            resumeWrite()
        case .lingering:
            discardInput()
        case .awaitingHandler:
            // Interest is the peer's hang-up (and writable while interim responses wait): a FIN, hang-up or error means
            // the client is gone before its answer (as nginx logs 499; a client that half-closes after its request
            // counts as gone, as there).
            if events & (Epoll.hangUp | Epoll.error | Epoll.readHangUp) != 0 {
                abandonHandler()
            } else if events & Epoll.writable != 0 {
                resumeInterim()
            }
        case .closed:
            break
        }
    }

    /// Reads once (level-triggered: more data is reported again) and parses.
    func receive() {
        let buffer = loop.receiveBuffer
        let received = recv(fd, buffer.baseAddress, buffer.count, 0)
        if received < 0 {
            if errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR { return }
            close()
            return
        }
        if received == 0 {
            close()
            return
        }
        parser.append(UnsafeRawBufferPointer(rebasing: buffer[0..<received]))
        process()
    }

    /// Runs the parser until it needs more bytes or a request leaves the `reading` phase.
    func process() {
        while phase == .reading {
            switch parser.next() {
            case .request(var request):
                if !holdBody(request.body.count) {
                    // Arrived whole with its head, but over the budget: not handed on.
                    refuseOverBudget()
                    return
                }
                requestDeadline = nil
                requestStarted = nil
                bodyStarted = nil
                bodyChecked = false
                request.remoteAddress = remoteAddress
                exchange = Exchange(
                    headRequest: request.method == .head, version: request.version, keepAlive: request.keepAlive)
                let server = loop.server
                var handoff: (any AnyObject & Sendable)?
                if let response = server.handler.handleSync(request, handoff: &handoff) {
                    answer(response)
                } else {
                    request.handoff = handoff
                    startAsync(request)
                }
            case .failure(let error):
                loop.server.counters.parseErrors.add(1, ordering: .relaxed)
                let refusal = HTTPServerResponse.problem(status: error.status, detail: error.message, code: error.code.rawValue)
                loop.server.handler.serverAnswered(status: refusal.status, bodyBytes: refusal.body.count)
                startWrite(refusal, headRequest: false, connection: .close, closing: true, counts: false)
            case .needMoreData:
                if !bodyChecked, let head = parsed({ $0.pendingHead }) {
                    // Refused before its body is read: nothing of it is buffered, the connection closes.
                    bodyChecked = true
                    if let refusal = loop.server.handler.refusesBody(head) {
                        loop.server.counters.bodiesRefused.add(1, ordering: .relaxed)
                        _ = parser.takeContinueRequest()  // no 100 Continue for a body that is refused
                        var closing = refusal
                        closing.closeConnection = true
                        exchange = Exchange(headRequest: head.method == .head, version: head.version, keepAlive: false)
                        answer(closing)
                        return
                    }
                }
                if parsed({ $0.isReadingBody }) && !holdBody(parsed({ $0.receivedBodyBytes })) {
                    // The bodies held are over the budget (all together, or this address's share): refuse, unread.
                    refuseOverBudget()
                    return
                }
                if parser.takeContinueRequest() {
                    startWrite(head: Self.continueInterim, closing: false)
                    if phase != .reading { return }
                }
                awaitInput()
                return
            }
        }
    }

    /// A query of the parser, read in place: a getter called through this class's stored `parser` copies the whole
    /// parser first (its buffers retained and released, measured on the hit path); an `inout` access does not.
    @inline(__always)
    func parsed<Value>(_ query: (inout HTTPRequestParser) -> Value) -> Value {
        query(&parser)
    }

    static let continueInterim = Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)

    /// Sets the read deadline (header or idle) and the read interest; closes an idle connection
    /// of a stopping server.
    func awaitInput() {
        let partial = parsed({ $0.hasPartialRequest })
        if loop.stopping && !partial {
            close()
            return
        }
        let now = MonotonicClock.nowMilliseconds()
        if partial || servedRequests == 0 {
            let started = requestStarted ?? now
            requestStarted = started
            if parsed({ $0.isReadingBody }) {
                // The body: at the minimum rate since the head, after a grace; the whole request within requestTimeout.
                let bodyStart = bodyStarted ?? now
                bodyStarted = bodyStart
                let byRate = bodyStart + loop.readHeaderMilliseconds + loop.milliseconds(atMinimumRate: parsed({ $0.receivedBodyBytes }))
                requestDeadline = min(started + loop.requestMilliseconds, byRate)
            } else if requestDeadline == nil {
                requestDeadline = min(started + loop.readHeaderMilliseconds, started + loop.requestMilliseconds)
            }
            setDeadline(requestDeadline ?? now)
        } else {
            setDeadline(now + loop.idleMilliseconds)
        }
        setInterest(Epoll.readable)
    }

    /// Called for every connection when the server stops: one waiting for a request closes now.
    /// At stop: closes a connection that has no request in flight — idle between requests, or still
    /// receiving a request head (a half-sent head is not in flight; waiting for it would let one slow
    /// client hold the stop for the whole read-header timeout). A body being received is let finish.
    /// Whether the connection waits for its next request after serving one (a keep-alive connection between requests).
    var isIdleKeepAlive: Bool { phase == .reading && servedRequests > 0 && !parsed({ $0.hasPartialRequest }) }

    func closeIfIdle() {
        if phase == .reading && !parsed({ $0.isReadingBody }) { close() }
    }

    // MARK: - Handler

    /// Runs the handler's async path on a task; the answer comes back through the loop's mailbox.
    func startAsync(_ request: HTTPServerRequest) {
        phase = .awaitingHandler
        setDeadline(Int.max)
        let loop = self.loop
        let handler = loop.server.handler
        let reference = EventLoop.ConnectionReference(connection: self)
        // RFC 9110 §15.2: no 1xx to an HTTP/1.0 client.
        let interim = exchange.version == .http1_0 ? HTTPInterimResponseWriter.disabled
            : HTTPInterimResponseWriter(target: .init(loop: loop, reference: reference, exchange: servedRequests))
        setInterest(Epoll.readHangUp)
        let presence = ClientPresence()
        self.presence = presence
        Task.detached {
            let response = await ClientPresence.$current.withValue(presence) {
                await handler.handle(request, interim: interim)
            }
            loop.post(.response(reference, response))
        }
    }

    /// The client went away while the handler ran: its ``ClientPresence`` is marked gone (work not started yet for it,
    /// such as a queued image transform, is dropped; nothing running is interrupted), the request is counted in
    /// ``HTTPServer/Statistics/abandonedRequests``, and the connection closes; the handler's answer is discarded.
    func abandonHandler() {
        loop.server.counters.abandoned.add(1, ordering: .relaxed)
        close()  // marks the presence gone
    }

    /// The async handler answered (on the loop thread, from the mailbox).
    func completeAsync(_ response: HTTPServerResponse) {
        guard phase == .awaitingHandler else { return }  // closed meanwhile (peer gone or forced stop)
        presence = nil
        phase = .reading
        answer(response)
        if phase == .reading { process() }
    }

    /// Books the current request's body at `bytes` in the server's body budget.
    /// - Returns: `false` when the budget is exceeded: all connections' (``HTTPServer/Configuration/maxBufferedBodyBytes``)
    ///   or this address's share (``HTTPServer/Configuration/maxBufferedBodyBytesPerPeer``).
    func holdBody(_ bytes: Int) -> Bool {
        let delta = bytes - heldBodyBytes
        guard delta > 0 else { return true }
        heldBodyBytes = bytes
        return loop.server.holdBodyBytes(delta, peer: peer)
    }

    /// Gives the current request's body bytes back to the budget.
    func releaseBody() {
        guard heldBodyBytes > 0 else { return }
        loop.server.releaseBodyBytes(heldBodyBytes, peer: peer)
        heldBodyBytes = 0
    }

    /// `503` `body-budget-exhausted` with `Retry-After: 1`, then close; the body's bytes go back at once.
    func refuseOverBudget() {
        var refusal = HTTPServerResponse.problem(
            status: 503, detail: "request bodies held in memory are at the server's limit; retry later",
            code: "body-budget-exhausted")
        refusal.headerFields.append(.retryAfter, "1")
        loop.server.counters.bodiesRefused.add(1, ordering: .relaxed)
        releaseBody()
        loop.server.handler.serverAnswered(status: 503, bodyBytes: refusal.body.count)
        startWrite(refusal, headRequest: false, connection: .close, closing: true, counts: false)
    }

    /// Writes the handler's response for the current exchange.
    func answer(_ response: HTTPServerResponse) {
        releaseBody()
        let server = loop.server
        let closing = !exchange.keepAlive || response.closeConnection || server.isStopping
        let field: HTTPResponseSerializer.ConnectionField =
            closing ? .close : (exchange.version == .http1_0 ? .keepAlive : .omitted)
        servedRequests += 1
        server.counters.requests.add(1, ordering: .relaxed)
        startWrite(response, headRequest: exchange.headRequest, connection: field, closing: closing, counts: true)
    }

    // MARK: - Deadlines

    func setDeadline(_ value: Int) {
        deadline = value
        if value != Int.max { loop.noteDeadline(value) }
    }

    func setInterest(_ events: UInt32) {
        guard events != interest, phase != .closed else { return }
        interest = events
        Epoll.modify(loop.epollFD, fd, events: events, token: token)
    }

    /// The deadline passed: header timeout (`408` when bytes arrived, else silent close), idle
    /// timeout, write timeout, or the end of a lingering close.
    func expire() {
        deadline = Int.max
        switch phase {
        case .reading:
            loop.server.counters.timeouts.add(1, ordering: .relaxed)
            if parsed({ $0.hasPartialRequest }) {
                let timeout = HTTPServerResponse.problem(status: 408, detail: "request not received in time")
                loop.server.handler.serverAnswered(status: 408, bodyBytes: timeout.body.count)
                startWrite(timeout, headRequest: false, connection: .close, closing: true, counts: false)
            } else {
                close()
            }
        case .writing:
            // The queue may have drained without an EPOLLOUT (a large send queue signals only when it is low again):
            // what the peer took since the last write still earns time.
            let renewed = writeDeadline()
            if renewed > MonotonicClock.nowMilliseconds() {
                setDeadline(renewed)
                return
            }
            loop.server.counters.timeouts.add(1, ordering: .relaxed)
            close()
        case .lingering:
            close()
        case .awaitingHandler, .closed:
            break
        }
    }

    /// Closes the socket and leaves the loop. Idempotent.
    func close() {
        guard phase != .closed else { return }
        phase = .closed
        presence?.markGone()  // nobody can receive its answer now
        presence = nil
        releaseBody()
        deadline = Int.max
        pendingHead = []
        pendingBody = []
        pendingBodyOwner = nil
        interimBacklog = []
        loop.remove(self)
    }
}
