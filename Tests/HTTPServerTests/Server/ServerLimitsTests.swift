import Glibc
import Testing
@testable import HTTPServer

/// Time-based tests: few, with short injected timeouts and generous margins.
@Suite struct ServerLimitsTests {
    @Test func connectionOverTheCapGets503AndIsClosed() throws {
        let server = try startServer(EchoHandler()) {
            $0.maxConnections = 2
            $0.eventLoopCount = 1
        }
        defer { server.stop() }
        let first = try TestClient(port: server.port)
        let second = try TestClient(port: server.port)
        for client in [first, second] {  // a served request proves each one holds a slot
            client.send("GET / HTTP/1.1\r\nHost: t\r\n\r\n")
            #expect(client.readResponse()?.status == 200)
        }
        let third = try TestClient(port: server.port)
        let refused = try #require(third.readResponse())
        #expect(refused.status == 503)
        #expect(refused.field("date") != nil)
        #expect(refused.field("x-content-type-options") == "nosniff")
        #expect(refused.field("connection") == "close")
        #expect(refused.text
            == #"{"code":"too-many-connections","detail":"too many connections","status":503,"title":"Service Unavailable","type":"https://mediactl.dev/problems/too-many-connections"}"#)
        #expect(third.isClosedByPeer())
        // Idle-first (hardening item 4): the refusal made the idle keep-alive connections give way; the next one is served.
        #expect(first.isClosedByPeer())
        #expect(second.isClosedByPeer())
        let fourth = try TestClient(port: server.port)
        fourth.send("GET /again HTTP/1.1\r\nHost: t\r\n\r\n")
        #expect(fourth.readResponse()?.text == "GET /again 0")
        #expect(server.statistics == HTTPServer.Statistics(
            acceptedConnections: 3, refusedConnections: 1, openConnections: 1, requests: 3, parseErrors: 0, timeouts: 0,
            shedConnections: 2))
    }

    /// Hardening item 4: one address holds at most `maxConnectionsPerPeer`; another address, or one of
    /// `uncappedPeers`, is not held back by it. (127.0.0.2 is loopback too on Linux.)
    @Test func perAddressCapLeavesRoomForOthers() throws {
        let server = try startServer(EchoHandler()) {
            $0.maxConnectionsPerPeer = 2
            $0.eventLoopCount = 1
        }
        defer { server.stop() }
        let held = try (0..<2).map { _ in try TestClient(port: server.port) }
        for client in held {
            client.send("GET / HTTP/1.1\r\nHost: t\r\n\r\n")
            #expect(client.readResponse()?.status == 200)
        }
        let over = try TestClient(port: server.port)
        let refused = try #require(over.readResponse())
        #expect(refused.status == 503)
        #expect(refused.text
            == #"{"code":"too-many-connections","detail":"too many connections from one address","status":503,"title":"Service Unavailable","type":"https://mediactl.dev/problems/too-many-connections"}"#)
        let other = try TestClient(port: server.port, sourceAddress: 0x7F00_0002)
        other.send("GET /other HTTP/1.1\r\nHost: t\r\n\r\n")
        #expect(other.readResponse()?.text == "GET /other 0")
        #expect(server.statistics.refusedPerPeer == 1)
        for client in held {  // the held connections are untouched
            client.send("GET /again HTTP/1.1\r\nHost: t\r\n\r\n")
            #expect(client.readResponse()?.status == 200)
        }
    }

    /// The last eighth of the cap admits only addresses that hold fewer than 8 connections (security test F3: four
    /// addresses at their per-address cap took every slot).
    @Test func theLastEighthOfTheCapIsKeptForAddressesWithFewConnections() throws {
        let server = try startServer(EchoHandler()) {
            $0.maxConnections = 16
            $0.maxConnectionsPerPeer = 16
            $0.eventLoopCount = 1
        }
        defer { server.stop() }
        let held = try (0..<14).map { _ in try TestClient(port: server.port) }
        let refused = try TestClient(port: server.port)
        #expect(refused.readResponse()?.text
            == #"{"code":"too-many-connections","detail":"too many connections","status":503,"title":"Service Unavailable","type":"https://mediactl.dev/problems/too-many-connections"}"#)
        let newcomer = try TestClient(port: server.port, sourceAddress: 0x7F00_0002)
        newcomer.send("GET /new HTTP/1.1\r\nHost: t\r\n\r\n")
        #expect(newcomer.readResponse()?.text == "GET /new 0")
        #expect(held.count == 14)
    }

    @Test func uncappedPeersAreExempt() throws {
        let server = try startServer(EchoHandler()) {
            $0.maxConnectionsPerPeer = 1
            $0.uncappedPeers = ["127.0.0.1"]
        }
        defer { server.stop() }
        let clients = try (0..<3).map { _ in try TestClient(port: server.port) }
        for client in clients {
            client.send("GET / HTTP/1.1\r\nHost: t\r\n\r\n")
            #expect(client.readResponse()?.status == 200)
        }
        #expect(server.statistics.refusedPerPeer == 0)
    }

    @Test func slowHeaderIsTimedOutWhileOthersAreServed() throws {
        let server = try startServer(EchoHandler()) { $0.readHeaderTimeout = .milliseconds(200) }
        defer { server.stop() }
        let started = MonotonicClock.nowMilliseconds()  // before the connection: the deadline starts after it
        let slow = try TestClient(port: server.port)
        slow.send("GET / HTTP/1.1\r\nHo")
        let other = try TestClient(port: server.port)
        other.send("GET /fast HTTP/1.1\r\nHost: t\r\n\r\n")
        #expect(other.readResponse()?.text == "GET /fast 0")
        let timedOut = try #require(slow.readResponse())
        let elapsed = MonotonicClock.nowMilliseconds() - started
        #expect(timedOut.status == 408)
        #expect(timedOut.field("connection") == "close")
        #expect(slow.isClosedByPeer())
        #expect(server.statistics.timeouts == 1)
        #expect(elapsed >= 200)
        #expect(elapsed < 4_000)
    }

    @Test func stalledBodyGets408() throws {
        let server = try startServer(EchoHandler()) { $0.readHeaderTimeout = .milliseconds(200) }
        defer { server.stop() }
        let client = try TestClient(port: server.port)
        client.send("POST /up HTTP/1.1\r\nHost: t\r\nContent-Length: 10\r\n\r\nabc")
        let response = try #require(client.readResponse())
        #expect(response.status == 408)
        #expect(response.text
            == #"{"code":"request-timeout","detail":"request not received in time","status":408,"title":"Request Timeout","type":"https://mediactl.dev/problems/request-timeout"}"#)
        #expect(client.isClosedByPeer())
    }

    @Test func silentNewConnectionIsClosedAfterTheHeaderTimeout() throws {
        let server = try startServer(EchoHandler()) {
            $0.readHeaderTimeout = .milliseconds(200)
            $0.idleTimeout = .seconds(60)
        }
        defer { server.stop() }
        let started = MonotonicClock.nowMilliseconds()  // before the connection: the deadline starts after it
        let client = try TestClient(port: server.port)
        #expect(client.isClosedByPeer())  // nothing was received, so no 408 either
        let elapsed = MonotonicClock.nowMilliseconds() - started
        #expect(elapsed >= 200)
        #expect(elapsed < 4_000)
    }

    @Test func idleKeepAliveConnectionIsClosedSilently() throws {
        let server = try startServer(EchoHandler()) { $0.idleTimeout = .milliseconds(200) }
        defer { server.stop() }
        let client = try TestClient(port: server.port)
        let started = MonotonicClock.nowMilliseconds()  // before the request: the idle deadline starts after its answer
        client.send("GET / HTTP/1.1\r\nHost: t\r\n\r\n")
        #expect(client.readResponse()?.status == 200)
        #expect(client.isClosedByPeer())
        let elapsed = MonotonicClock.nowMilliseconds() - started
        #expect(elapsed >= 200)
        #expect(elapsed < 4_000)
    }

    @Test func clientThatNeverReadsIsDroppedAfterTheWriteTimeout() throws {
        struct HugeHandler: HTTPHandling {
            func handle(_ request: HTTPServerRequest) async -> HTTPServerResponse { HTTPServerResponse(status: 500) }
            func handleSync(_ request: HTTPServerRequest) -> HTTPServerResponse? {
                HTTPServerResponse(status: 200, body: [UInt8](repeating: 0, count: 32 << 20))
            }
        }
        let server = try startServer(HugeHandler()) {
            $0.writeTimeout = .milliseconds(200)
            $0.minTransferRate = 0  // no allowance for size: the response within writeTimeout
        }
        defer { server.stop() }
        let client = try TestClient(port: server.port)
        client.send("GET / HTTP/1.1\r\nHost: t\r\n\r\n")
        // The response has begun (so the server holds the connection), but cannot fit in the socket buffers.
        #expect(client.readHeadBytes(12) == Array("HTTP/1.1 200".utf8))
        // The server gives up writing and closes.
        let deadline = MonotonicClock.nowMilliseconds() + 5_000
        while server.connectionCount > 0 && MonotonicClock.nowMilliseconds() < deadline {
            _ = poll(nil, 0, 20)
        }
        #expect(server.connectionCount == 0)
    }
}
