import Glibc
import Synchronization
import Testing
@testable import HTTPServer

@Suite struct ServerStopTests {
    /// Runs `server.stop()` on its own thread and opens the returned gate when it returns.
    func stopInBackground(_ server: HTTPServer) -> Gate {
        let stopped = Gate()
        _ = PosixThread.spawn(name: "test", stackBytes: 262_144, detached: true) {
            server.stop()
            stopped.open()
        }
        return stopped
    }

    @Test func stopFinishesInFlightRequestAndClosesIdleOnes() throws {
        let handler = BlockingHandler()
        // Two loops: the idle and the busy connection (accepted in that order) land on different
        // loops, so the idle one is closed while the busy one's loop is inside the blocking handler.
        let server = try startServer(handler) {
            $0.drainTimeout = .seconds(10)
            $0.eventLoopCount = 2
        }
        let port = server.port
        let idle = try TestClient(port: port)
        let busy = try TestClient(port: port)
        busy.send("GET /slow HTTP/1.1\r\nHost: t\r\n\r\n")
        #expect(handler.entered.wait())
        #expect(server.connectionCount == 2)

        let stopped = stopInBackground(server)
        #expect(idle.isClosedByPeer())
        #expect(!stopped.wait(milliseconds: 100))  // still draining the in-flight request
        handler.release.open()
        let response = try #require(busy.readResponse())
        #expect(response.status == 200)
        #expect(response.text == "finished")
        #expect(response.field("connection") == "close")
        #expect(busy.isClosedByPeer())
        #expect(stopped.wait())
        #expect(server.connectionCount == 0)
        #expect(throws: TestClientError.self) { _ = try TestClient(port: port) }
    }

    /// A half-sent request head is not in flight: stop closes it at once instead of waiting for the
    /// read-header timeout (one slow client would otherwise hold every stop for 10 s).
    @Test func stopClosesAHalfSentRequestHeadAtOnce() throws {
        let server = try startServer(BlockingHandler()) {
            $0.drainTimeout = .seconds(30)
            $0.readHeaderTimeout = .seconds(30)
        }
        let partial = try TestClient(port: server.port)
        partial.send("GET /catalog/x HTTP/1.1\r\nHost: t\r\n")
        let stopped = stopInBackground(server)
        #expect(partial.isClosedByPeer())
        #expect(stopped.wait())
        #expect(server.connectionCount == 0)
    }

    @Test func drainTimeoutBoundsStop() throws {
        let handler = BlockingHandler()
        let server = try startServer(handler) { $0.drainTimeout = .milliseconds(200) }
        let busy = try TestClient(port: server.port)
        busy.send("GET /stuck HTTP/1.1\r\nHost: t\r\n\r\n")
        #expect(handler.entered.wait())
        let started = MonotonicClock.nowMilliseconds()
        server.stop()
        let elapsed = MonotonicClock.nowMilliseconds() - started
        #expect(elapsed >= 150)
        #expect(elapsed < 4_000)
        #expect(busy.readResponse() == nil)  // its socket was shut down
        handler.release.open()
    }

    @Test func stopIsIdempotentAndWorksBeforeStart() throws {
        let unstarted = HTTPServer(configuration: .init(port: 0), handler: EchoHandler())
        unstarted.stop()
        let server = try startServer(EchoHandler())
        server.stop()
        server.stop()
        #expect(throws: HTTPServerError(code: .alreadyStarted, message: "the server was already started")) {
            try server.start()
        }
    }
}
