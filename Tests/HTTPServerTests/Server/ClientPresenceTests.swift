import Glibc
@testable import HTTPServer
import MediaCore
import Synchronization
import Testing

/// A client that closes its connection while the async handler runs is marked gone (ClientPresence, what the
/// transform queue drops work by), counted, and its connection closed; a client that stays is not.
@Suite struct ClientPresenceTests {
    /// Records the presence its async path sees, then waits for `release` before answering.
    final class PresenceHandler: HTTPHandling, Sendable {
        let entered = AsyncPermits()
        let release = AsyncPermits()
        let seen = Mutex<[ClientPresence]>([])

        func handleSync(_ request: HTTPServerRequest) -> HTTPServerResponse? { nil }

        func handle(_ request: HTTPServerRequest) async -> HTTPServerResponse {
            if let presence = ClientPresence.current { seen.withLock { $0.append(presence) } }
            entered.release()
            await release.acquire()
            return HTTPServerResponse(status: 200, body: Array("late".utf8))
        }
    }

    @Test func aClientThatClosesFirstIsMarkedGoneAndCounted() async throws {
        let handler = PresenceHandler()
        let server = try startServer(handler)
        defer { server.stop() }
        let leaving = try TestClient(port: server.port)
        leaving.send("GET /slow HTTP/1.1\r\nHost: t\r\n\r\n")
        await handler.entered.acquire()
        let presence = try #require(handler.seen.withLock { $0.first })
        #expect(!presence.isGone)
        shutdown(leaving.fd, Int32(SHUT_WR))
        var waited = 0
        while !presence.isGone && waited < 500 {
            try await Task.sleep(for: .milliseconds(10))
            waited += 1
        }
        #expect(presence.isGone)
        #expect(server.statistics.abandonedRequests == 1)
        #expect(leaving.isClosedByPeer())
        handler.release.release()

        // A client that waits gets its answer, and its presence stays.
        let staying = try TestClient(port: server.port)
        staying.send("GET /slow HTTP/1.1\r\nHost: t\r\n\r\n")
        await handler.entered.acquire()
        handler.release.release()
        #expect(staying.readResponse()?.text == "late")
        #expect(handler.seen.withLock { $0.count } == 2)
        #expect(handler.seen.withLock { $0[1].isGone } == false)
        #expect(server.statistics.abandonedRequests == 1)
    }
}
