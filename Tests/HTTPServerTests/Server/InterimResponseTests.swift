import Glibc
@testable import HTTPServer
import Synchronization
import Testing

/// Interim (1xx) responses sent by an async handler ahead of its final response (RFC 9110 §15.2).
@Suite struct InterimResponseTests {
    /// Sends what `interims` returns for the request, then answers `200` with the target as the body.
    /// Keeps each writer it was given in ``writers`` (to try one after its exchange ended).
    final class InterimHandler: HTTPHandling {
        let interims: @Sendable (HTTPServerRequest) -> [HTTPServerInterimResponse]
        let writers = Mutex<[HTTPInterimResponseWriter]>([])
        let sendResults = Mutex<[Bool]>([])
        let before: @Sendable () async -> Void

        init(before: @escaping @Sendable () async -> Void = {},
             interims: @escaping @Sendable (HTTPServerRequest) -> [HTTPServerInterimResponse]) {
            self.before = before
            self.interims = interims
        }

        func handle(_ request: HTTPServerRequest) async -> HTTPServerResponse { HTTPServerResponse(status: 500) }

        func handle(_ request: HTTPServerRequest, interim: HTTPInterimResponseWriter) async -> HTTPServerResponse {
            writers.withLock { $0.append(interim) }
            let results = interims(request).map { interim.send($0) }
            sendResults.withLock { $0 += results }
            await before()
            return HTTPServerResponse(status: 200, headerFields: [("Cache-Control", "max-age=60")], body: Array(request.target.utf8))
        }
    }

    static let earlyHints = HTTPServerInterimResponse(
        status: 103, headerFields: [("Link", "</styles.css>; rel=preload; as=style"), ("x-my-header", "test")])

    @Test func interimResponsesAreWrittenBeforeTheFinalResponseInOrder() async throws {
        let handler = InterimHandler { _ in [Self.earlyHints, HTTPServerInterimResponse(status: 102)] }
        let server = try startServer(handler)
        defer { server.stop() }
        let port = server.port
        let bytes = try await offPool { () throws -> [UInt8] in
            let client = try TestClient(port: port)
            client.send("GET /hinted HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n")
            var all: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = recv(client.fd, &chunk, chunk.count, 0)
                if count <= 0 { break }
                all += chunk[0..<count]
            }
            return all
        }
        let text = String(decoding: bytes, as: UTF8.self)
        let interims = "HTTP/1.1 103 Early Hints\r\nLink: </styles.css>; rel=preload; as=style\r\nx-my-header: test\r\n\r\n"
            + "HTTP/1.1 102 Processing\r\n\r\n"
        #expect(text.hasPrefix(interims + "HTTP/1.1 200 OK\r\nCache-Control: max-age=60\r\nDate: "))
        #expect(text.hasSuffix("\r\nContent-Length: 7\r\nConnection: close\r\n\r\n/hinted"))
        #expect(handler.sendResults.withLock { $0 } == [true, true])
    }

    @Test func anHTTP10ClientGetsNoInterimResponse() async throws {
        let handler = InterimHandler { _ in [Self.earlyHints] }
        let server = try startServer(handler)
        defer { server.stop() }
        let port = server.port
        let response = try await offPool { () throws -> WireResponse? in
            let client = try TestClient(port: port)
            client.send("GET /old HTTP/1.0\r\n\r\n")
            return client.readResponse()
        }
        #expect(response?.status == 200)
        #expect(response?.text == "/old")
        #expect(response?.field("link") == nil)
        #expect(handler.sendResults.withLock { $0 } == [false])
        #expect(handler.writers.withLock { $0.map(\.isEnabled) } == [false])
    }

    @Test func statusesOtherThanInterimOnesAreRefused() {
        #expect(HTTPServerInterimResponse(status: 100).isSendable)
        #expect(HTTPServerInterimResponse(status: 199).isSendable)
        #expect(!HTTPServerInterimResponse(status: 101).isSendable)
        #expect(!HTTPServerInterimResponse(status: 200).isSendable)
        #expect(!HTTPServerInterimResponse(status: 99).isSendable)
        #expect(!HTTPInterimResponseWriter.disabled.send(Self.earlyHints))
        #expect(!HTTPInterimResponseWriter.disabled.isEnabled)
    }

    /// A writer used after its exchange was answered sends nothing: the next request on the same
    /// keep-alive connection gets only its own response.
    @Test func aWriterUsedAfterItsExchangeSendsNothing() async throws {
        let handler = InterimHandler { request in request.target == "/first" ? [Self.earlyHints] : [] }
        let server = try startServer(handler) { $0.eventLoopCount = 1 }
        defer { server.stop() }
        let port = server.port
        let responses = try await offPool { () throws -> [WireResponse?] in
            let client = try TestClient(port: port)
            client.send("GET /first HTTP/1.1\r\nHost: t\r\n\r\n")
            let interim = client.readResponse()
            let first = client.readResponse()
            // The first exchange is over: its writer still accepts the call, the connection drops it.
            let late = handler.writers.withLock { $0[0] }
            _ = late.send(HTTPServerInterimResponse(status: 103, headerFields: [("Link", "</late.css>; rel=preload")]))
            client.send("GET /second HTTP/1.1\r\nHost: t\r\n\r\n")
            let second = client.readResponse()
            return [interim, first, second]
        }
        #expect(responses.map { $0?.status } == [103, 200, 200])
        #expect(responses[0]?.field("link") == "</styles.css>; rel=preload; as=style")
        #expect(responses[1]?.text == "/first")
        #expect(responses[2]?.text == "/second")
        #expect(responses[2]?.field("link") == nil)
    }

    /// Interim responses the socket does not take at once wait in the connection (`EPOLLOUT` interest),
    /// are resumed when it is writable, and whatever is still waiting goes out before the final
    /// response, whole and in order. Driven directly on a connection over a socket pair with a small
    /// send buffer, with the test thread as the loop thread (no loop runs).
    @Test func interimResponsesTheSocketDoesNotTakeWaitAndPrecedeTheFinalResponse() throws {
        var pair: [Int32] = [-1, -1]
        #expect(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &pair) == 0)
        let (serverSide, peer) = (pair[0], pair[1])
        defer { close(peer) }
        var small: Int32 = 4_096
        setsockopt(serverSide, SOL_SOCKET, SO_SNDBUF, &small, socklen_t(MemoryLayout<Int32>.size))
        setsockopt(peer, SOL_SOCKET, SO_RCVBUF, &small, socklen_t(MemoryLayout<Int32>.size))
        _ = fcntl(serverSide, F_SETFL, fcntl(serverSide, F_GETFL) | O_NONBLOCK)
        let server = HTTPServer(handler: EchoHandler())
        let loop = try EventLoop(server: server)
        let connection = HTTPConnection(fd: serverSide, serial: 1, remoteAddress: "", peer: "", loop: loop)
        connection.phase = .awaitingHandler
        let padding = String(repeating: "p", count: 3_000)
        let interims = (0..<8).map { index in
            HTTPResponseSerializer.serializeInterim(HTTPServerInterimResponse(
                status: 103, headerFields: [("Link", "</\(index).css>; rel=preload"), ("X-Pad", padding)]))
        }
        for bytes in interims { connection.writeInterim(bytes, exchange: 0) }
        #expect(!connection.interimBacklog.isEmpty)
        #expect(connection.interest == Epoll.writable | Epoll.readHangUp)
        #expect(connection.phase == .awaitingHandler)
        // Another exchange's interim response is dropped.
        connection.writeInterim(Array("HTTP/1.1 103 Early Hints\r\nLink: <stale>\r\n\r\n".utf8), exchange: 7)
        var received: [UInt8] = []
        func drain() {
            var chunk = [UInt8](repeating: 0, count: 65_536)
            while true {
                let count = recv(peer, &chunk, chunk.count, Int32(MSG_DONTWAIT))
                if count <= 0 { return }
                received += chunk[0..<count]
            }
        }
        drain()
        connection.resumeInterim()   // as on EPOLLOUT
        drain()
        connection.completeAsync(HTTPServerResponse(status: 200, body: Array("final".utf8)))
        while connection.phase == .writing {
            drain()
            connection.resumeWrite()
        }
        drain()
        let expected = interims.joined() + Array("HTTP/1.1 200 OK\r\n".utf8)
        #expect(Array(received.prefix(expected.count)) == Array(expected))
        #expect(String(decoding: received, as: UTF8.self).hasSuffix("Content-Length: 5\r\n\r\nfinal"))
        #expect(connection.interimBacklog.isEmpty)
        #expect(connection.phase == .reading)
        // Once answered, the exchange takes no more interim responses.
        connection.writeInterim(interims[0], exchange: 0)
        drain()
        #expect(String(decoding: received, as: UTF8.self).hasSuffix("final"))
        connection.close()
    }
}
