import Glibc
import Synchronization
import Testing
@testable import HTTPServer

/// The event-loop paths: many connections on few loops, partial writes, async answers posted back
/// to the owning loop, deadlines swept by the loop.
@Suite struct EventLoopTests {
    @Test func manyConnectionsOnOneLoopAreServedInterleaved() throws {
        let server = try startServer(EchoHandler()) { $0.eventLoopCount = 1 }
        defer { server.stop() }
        let clients = try (0..<40).map { _ in try TestClient(port: server.port) }
        for round in 1...3 {
            for (index, client) in clients.enumerated() {
                client.send("GET /c\(index)r\(round) HTTP/1.1\r\nHost: t\r\n\r\n")
            }
            for (index, client) in clients.enumerated().reversed() {
                #expect(client.readResponse()?.text == "GET /c\(index)r\(round) 0")
            }
        }
        #expect(server.statistics == HTTPServer.Statistics(
            acceptedConnections: 40, refusedConnections: 0, openConnections: 40, requests: 120, parseErrors: 0,
            timeouts: 0))
    }

    @Test func connectionsAreSpreadOverSeveralLoops() throws {
        let server = try startServer(EchoHandler()) { $0.eventLoopCount = 3 }
        defer { server.stop() }
        let clients = try (0..<7).map { _ in try TestClient(port: server.port) }
        for (index, client) in clients.enumerated() {
            client.send("GET /\(index) HTTP/1.1\r\nHost: t\r\n\r\n")
            #expect(client.readResponse()?.text == "GET /\(index) 0")
        }
        let loops = server.state.withLock { $0.loops }
        #expect(loops.count == 3)
        #expect(server.statistics.openConnections == 7)
    }

    @Test func defaultLoopCountIsTheOnlineCPUs() {
        let cpus = max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN)))
        #expect(HTTPServer.Configuration().eventLoopCount == cpus)
        #expect(HTTPServer.Configuration.defaultEventLoopCount == cpus)
    }

    @Test func largeBodyToASlowReaderIsWrittenInPartsWithoutBlockingTheLoop() throws {
        let body = (0..<(6 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 11) }
        struct LargeHandler: HTTPHandling {
            let body: [UInt8]
            func handle(_ request: HTTPServerRequest) async -> HTTPServerResponse { HTTPServerResponse(status: 500) }
            func handleSync(_ request: HTTPServerRequest) -> HTTPServerResponse? {
                request.target == "/large"
                    ? HTTPServerResponse(status: 200, body: body)
                    : HTTPServerResponse(status: 200, body: Array(request.target.utf8))
            }
        }
        let server = try startServer(LargeHandler(body: body)) { $0.eventLoopCount = 1 }
        defer { server.stop() }
        let slow = try TestClient(port: server.port)
        slow.send("GET /large HTTP/1.1\r\nHost: t\r\n\r\nGET /after HTTP/1.1\r\nHost: t\r\n\r\n")
        _ = poll(nil, 0, 100)  // the socket buffers fill; the loop now waits for EPOLLOUT
        // The single loop still serves another connection while the large write is pending.
        let other = try TestClient(port: server.port)
        other.send("GET /other HTTP/1.1\r\nHost: t\r\n\r\n")
        #expect(other.readResponse()?.text == "/other")
        let large = try #require(slow.readResponse())
        #expect(large.status == 200)
        #expect(large.body.count == body.count)
        #expect(large.body == body)
        // The pipelined request behind the large response is answered after it, on the same connection.
        #expect(slow.readResponse()?.text == "/after")
        #expect(server.statistics.requests == 3)
        #expect(server.statistics.timeouts == 0)
    }

    @Test func whatTheSyncPathLearnedReachesTheAsyncPathAsTheHandoff() throws {
        final class Learned: Sendable {
            let text: String
            init(text: String) { self.text = text }
        }
        struct HandoffHandler: HTTPHandling {
            func handle(_ request: HTTPServerRequest) async -> HTTPServerResponse {
                HTTPServerResponse(status: 200, body: Array("async \((request.handoff as? Learned)?.text ?? "none")".utf8))
            }
            func handleSync(_ request: HTTPServerRequest, handoff: inout (any AnyObject & Sendable)?) -> HTTPServerResponse? {
                if request.target == "/learned" { handoff = Learned(text: "admitted \(request.target)") }
                return nil
            }
        }
        let server = try startServer(HandoffHandler()) { $0.eventLoopCount = 1 }
        defer { server.stop() }
        let client = try TestClient(port: server.port)
        client.send("GET /learned HTTP/1.1\r\nHost: t\r\n\r\nGET /plain HTTP/1.1\r\nHost: t\r\n\r\n")
        #expect(client.readResponse()?.text == "async admitted /learned")
        #expect(client.readResponse()?.text == "async none")
    }

    @Test func asyncAnswersArePostedBackWhileTheLoopServesOthers() async throws {
        let permits = AsyncPermits()
        let handler = SplitHandler(holdingOn: permits)
        let server = try startServer(handler) { $0.eventLoopCount = 1 }
        defer { server.stop() }
        let port = server.port
        let texts = try await offPool { () throws -> [String?] in
            let slow = try TestClient(port: port)
            let fast = try TestClient(port: port)
            // Two pipelined async requests: answered in order, one in flight at a time.
            slow.send("GET /slow/1 HTTP/1.1\r\nHost: t\r\n\r\nGET /slow/2 HTTP/1.1\r\nHost: t\r\n\r\n")
            fast.send("GET /fast HTTP/1.1\r\nHost: t\r\n\r\n")
            let fastText = fast.readResponse()?.text  // sync answer while /slow/1 is held in its task
            let first = handler.waitForStarts(1)
            _ = poll(nil, 0, 50)  // a loop that did not hold /slow/2 back would start it now
            let beforeRelease = handler.started.withLock { $0 }
            permits.release()
            let slowOne = slow.readResponse()?.text
            _ = handler.waitForStarts(2)
            permits.release()
            let slowTwo = slow.readResponse()?.text
            return [fastText, slowOne, slowTwo, first.joined(separator: ","), beforeRelease.joined(separator: ",")]
        }
        #expect(texts == ["sync /fast", "async /slow/1", "async /slow/2", "start /slow/1", "start /slow/1"])
        #expect(handler.started.withLock { $0 } == ["start /slow/1", "start /slow/2"])
        #expect(server.statistics.requests == 3)
    }

    @Test func stopLetsAnAwaitedAsyncAnswerFinishWithConnectionClose() async throws {
        let permits = AsyncPermits()
        let handler = SplitHandler(holdingOn: permits)
        let server = try startServer(handler) {
            $0.eventLoopCount = 1
            $0.drainTimeout = .seconds(10)
        }
        let port = server.port
        let results = try await offPool { () throws -> (WireResponse?, Bool) in
            let idle = try TestClient(port: port)  // on the same loop: its close shows the loop saw the stop
            idle.send("GET /fast HTTP/1.1\r\nHost: t\r\n\r\n")
            _ = idle.readResponse()
            let client = try TestClient(port: port)
            client.send("GET /slow/stop HTTP/1.1\r\nHost: t\r\n\r\n")
            _ = handler.waitForStarts(1)  // the request is in its task now
            let stopped = Gate()
            _ = PosixThread.spawn(name: "test", stackBytes: 262_144, detached: true) {
                server.stop()
                stopped.open()
            }
            let idleClosed = idle.isClosedByPeer()
            permits.release()
            let response = client.readResponse()
            _ = client.isClosedByPeer()
            _ = stopped.wait()
            return (response, idleClosed)
        }
        #expect(results.1)
        #expect(results.0?.text == "async /slow/stop")
        #expect(results.0?.field("connection") == "close")
        #expect(server.connectionCount == 0)
    }

    @Test func peerGoneWhileAwaitingTheHandlerClosesTheConnection() async throws {
        let permits = AsyncPermits()
        let handler = SplitHandler(holdingOn: permits)
        let server = try startServer(handler)
        defer {
            permits.release()
            server.stop()
        }
        let port = server.port
        try await offPool { () throws -> Void in
            let client = try TestClient(port: port)
            client.send("GET /slow/gone HTTP/1.1\r\nHost: t\r\n\r\n")
            _ = handler.waitForStarts(1)  // the connection now awaits the handler
            var option = linger(l_onoff: 1, l_linger: 0)  // close with a reset
            setsockopt(client.fd, SOL_SOCKET, SO_LINGER, &option, socklen_t(MemoryLayout<linger>.size))
        }
        let deadline = MonotonicClock.nowMilliseconds() + 5_000
        while server.connectionCount > 0 && MonotonicClock.nowMilliseconds() < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(server.connectionCount == 0)
    }

    /// Real deadlines with wide margins: every pause the test relies on is at least 5× shorter (or longer)
    /// than the deadline it tests, so a loaded machine's scheduling delays do not change the outcome.
    @Test func idleDeadlinesOfManyConnectionsOnOneLoopExpireWhileAnActiveOneIsServed() throws {
        let server = try startServer(EchoHandler()) {
            $0.eventLoopCount = 1
            $0.idleTimeout = .milliseconds(1_000)
        }
        defer { server.stop() }
        let idle = try (0..<10).map { _ in try TestClient(port: server.port) }
        for client in idle {
            client.send("GET / HTTP/1.1\r\nHost: t\r\n\r\n")
            #expect(client.readResponse()?.status == 200)
        }
        let active = try TestClient(port: server.port)
        let started = MonotonicClock.nowMilliseconds()
        var index = 0
        // One request every 100 ms keeps it alive until well past the others' deadline.
        while MonotonicClock.nowMilliseconds() - started < 1_500 {
            active.send("GET /a\(index) HTTP/1.1\r\nHost: t\r\n\r\n")
            #expect(active.readResponse()?.text == "GET /a\(index) 0")
            index += 1
            _ = poll(nil, 0, 100)
        }
        for client in idle { #expect(client.isClosedByPeer()) }
        #expect(server.statistics.timeouts == 10)
        #expect(server.connectionCount == 1)
    }

    /// Hardening item 2: a body must arrive at `minTransferRate` after a grace of `readHeaderTimeout`; one byte every
    /// few seconds no longer holds a connection (the old rule restarted the timer with every read).
    @Test func bodyMustKeepTheMinimumRateAndHeaderDeadlineHolds() throws {
        let server = try startServer(EchoHandler()) {
            $0.eventLoopCount = 1
            $0.readHeaderTimeout = .milliseconds(1_500)
            $0.minTransferRate = 5  // bytes per second: each byte buys 200 ms after the grace
        }
        defer { server.stop() }
        let body = try TestClient(port: server.port)
        body.send("POST /up HTTP/1.1\r\nHost: t\r\nContent-Length: 5\r\n\r\n")
        for byte in "hello" {  // one byte per 400 ms: 2 s in all, within 1.5 s + 5 × 200 ms
            _ = poll(nil, 0, 400)
            body.send(String(byte))
        }
        #expect(body.readResponse()?.text == "POST /up 5")
        let slow = try TestClient(port: server.port)
        let slowStart = MonotonicClock.nowMilliseconds()
        slow.send("POST /up HTTP/1.1\r\nHost: t\r\nContent-Length: 100\r\n\r\n")
        for _ in 0..<20 {  // one byte per 400 ms falls behind 5 bytes/s once the grace is spent (about 2.6 s)
            _ = poll(nil, 0, 400)
            slow.send("x")
            if slow.hasPendingInput() { break }
        }
        #expect(slow.readResponse()?.status == 408)
        let elapsed = MonotonicClock.nowMilliseconds() - slowStart
        #expect(elapsed >= 2_000 && elapsed < 5_000, "\(elapsed) ms")
        #expect(server.statistics.timeouts == 1)
        let head = try TestClient(port: server.port)
        let started = MonotonicClock.nowMilliseconds()
        for part in ["GET / HT", "TP/1.1\r\n", "Host: t\r\n", "X: 1\r\n", "Y: 2\r\n"] {  // trickled: the head deadline holds
            head.send(part)
            _ = poll(nil, 0, 400)
        }
        let response = try #require(head.readResponse())
        #expect(response.status == 408)
        #expect(MonotonicClock.nowMilliseconds() - started < 5_000)
        #expect(server.statistics.timeouts == 2)
    }

    /// Hardening item 2: the whole request, head and body, within `requestTimeout`, however fast it trickles.
    @Test func wholeRequestWithinTheRequestTimeout() throws {
        let server = try startServer(EchoHandler()) {
            $0.eventLoopCount = 1
            $0.readHeaderTimeout = .milliseconds(800)
            $0.requestTimeout = .milliseconds(1_500)
            $0.minTransferRate = 1  // every byte buys a second: only the request timeout can end it
        }
        defer { server.stop() }
        let client = try TestClient(port: server.port)
        let started = MonotonicClock.nowMilliseconds()
        client.send("POST /up HTTP/1.1\r\nHost: t\r\nContent-Length: 100\r\n\r\n")
        for _ in 0..<20 {
            _ = poll(nil, 0, 200)
            client.send("xx")
            if client.hasPendingInput() { break }
        }
        #expect(client.readResponse()?.status == 408)
        let elapsed = MonotonicClock.nowMilliseconds() - started
        #expect(elapsed >= 1_400 && elapsed < 3_000, "\(elapsed) ms")
    }
}

/// `/slow/…` goes to the async path, which sleeps 200 ms or, given permits, waits for one; anything
/// else is answered synchronously.
final class SplitHandler: HTTPHandling {
    /// `start <target>` for each async request, in the order the handler began them.
    let started = Mutex<[String]>([])
    private let permits: AsyncPermits?

    init(holdingOn permits: AsyncPermits? = nil) {
        self.permits = permits
    }

    func handle(_ request: HTTPServerRequest) async -> HTTPServerResponse {
        started.withLock { $0.append("start \(request.target)") }
        if let permits {
            await permits.acquire()
        } else {
            try? await Task.sleep(for: .milliseconds(200))
        }
        return HTTPServerResponse(status: 200, body: Array("async \(request.target)".utf8))
    }

    func handleSync(_ request: HTTPServerRequest) -> HTTPServerResponse? {
        request.target.hasPrefix("/slow/") ? nil : HTTPServerResponse(status: 200, body: Array("sync \(request.target)".utf8))
    }

    /// Blocks a test thread (never the pool) until `count` async requests have started, up to 5 s;
    /// returns the starts seen.
    func waitForStarts(_ count: Int) -> [String] {
        let deadline = MonotonicClock.nowMilliseconds() + 5_000
        while true {
            let seen = started.withLock { $0 }
            if seen.count >= count || MonotonicClock.nowMilliseconds() >= deadline { return seen }
            _ = poll(nil, 0, 2)
        }
    }
}
