import Glibc
import Testing
@testable import HTTPServer

/// Hardening item 1: a body nobody reads is never buffered, and the bodies that are read share one budget.
@Suite struct BodyAdmissionTests {
    /// Refuses every body except on `/upload` (as `mediactl serve` refuses GET bodies, unknown routes and methods).
    struct UploadOnly: HTTPHandling {
        func handle(_ request: HTTPServerRequest) async -> HTTPServerResponse { answer(request) }
        func handleSync(_ request: HTTPServerRequest) -> HTTPServerResponse? { answer(request) }
        func answer(_ request: HTTPServerRequest) -> HTTPServerResponse {
            HTTPServerResponse(status: 200, body: Array("\(request.method) \(request.target) \(request.body.count)".utf8))
        }
        func refusesBody(_ head: HTTPServerRequest) -> HTTPServerResponse? {
            head.target == "/upload" ? nil : .problem(status: 404, detail: "no route matches", code: "no-route")
        }
    }

    /// A `POST /upload` head declaring `length` body bytes, then the first `sent` of them (all `fill`).
    static func upload(length: Int, sent: Int, fill: String) -> String {
        "POST /upload HTTP/1.1\r\nHost: t\r\nContent-Length: \(length)\r\n\r\n" + String(repeating: fill, count: sent)
    }

    /// Two uploads of `length` bytes from one address: the first sends 80 of them and holds them, then (100 ms later)
    /// the second sends 40.
    static func twoUploads(port: Int, length: Int) throws -> (first: TestClient, second: TestClient) {
        let first = try TestClient(port: port)
        first.send(upload(length: length, sent: 80, fill: "a"))
        _ = poll(nil, 0, 100)
        let second = try TestClient(port: port)
        second.send(upload(length: length, sent: 40, fill: "b"))
        return (first, second)
    }

    @Test func aRefusedBodyIsAnsweredFromTheHeadAndItsConnectionClosed() throws {
        let server = try startServer(UploadOnly()) { $0.eventLoopCount = 1 }
        defer { server.stop() }
        let client = try TestClient(port: server.port)
        // 8 MiB announced, none sent: the answer comes at once, nothing waits for the body.
        client.send("GET /elsewhere HTTP/1.1\r\nHost: t\r\nContent-Length: 8388608\r\n\r\n")
        let response = try #require(client.readResponse())
        #expect(response.status == 404)
        #expect(response.field("connection") == "close")
        #expect(response.text
            == #"{"code":"no-route","detail":"no route matches","status":404,"title":"Not Found","type":"https://mediactl.dev/problems/no-route"}"#)
        #expect(client.isClosedByPeer())
        #expect(server.statistics.refusedBodies == 1)
        // Expect: 100-continue gets the refusal, not a 100.
        let expecting = try TestClient(port: server.port)
        expecting.send("POST /x HTTP/1.1\r\nHost: t\r\nContent-Length: 5\r\nExpect: 100-continue\r\n\r\n")
        #expect(expecting.readResponse()?.status == 404)
        // A body the handler wants is read and handled, and the connection stays.
        let upload = try TestClient(port: server.port)
        upload.send("POST /upload HTTP/1.1\r\nHost: t\r\nContent-Length: 5\r\n\r\n")
        _ = poll(nil, 0, 50)
        upload.send("hello")
        #expect(upload.readResponse()?.text == "POST /upload 5")
        upload.send("GET /upload HTTP/1.1\r\nHost: t\r\n\r\n")
        #expect(upload.readResponse()?.text == "GET /upload 0")
    }

    @Test func bodiesTogetherStayWithinTheBudget() throws {
        let server = try startServer(UploadOnly()) {
            $0.eventLoopCount = 1
            $0.maxBufferedBodyBytes = 100
        }
        defer { server.stop() }
        let (first, second) = try Self.twoUploads(port: server.port, length: 200)
        let refused = try #require(second.readResponse())
        #expect(refused.status == 503)
        #expect(refused.field("retry-after") == "1")
        #expect(refused.text
            == #"{"code":"body-budget-exhausted","detail":"request bodies held in memory are at the server's limit; retry later","status":503,"title":"Service Unavailable","type":"https://mediactl.dev/problems/body-budget-exhausted"}"#)
        // The first, already held, completes over the budget (200 bytes alone): refused too, even though its rest
        // arrived in one read; its bytes are given back at once.
        first.send(String(repeating: "a", count: 120))
        #expect(first.readResponse()?.status == 503)
        let third = try TestClient(port: server.port)
        third.send(Self.upload(length: 90, sent: 90, fill: "c"))
        #expect(third.readResponse()?.text == "POST /upload 90")
        #expect(server.statistics.refusedBodies == 2)
    }

    /// One address cannot hold the whole budget: its connections share `maxBufferedBodyBytesPerPeer`.
    @Test func oneAddressHoldsAtMostItsShare() throws {
        let server = try startServer(UploadOnly()) {
            $0.eventLoopCount = 1
            $0.maxBufferedBodyBytes = 1_000
            $0.maxBufferedBodyBytesPerPeer = 100
        }
        defer { server.stop() }
        let (first, second) = try Self.twoUploads(port: server.port, length: 500)
        #expect(second.readResponse()?.status == 503)
        // Another address has its own share.
        let other = try TestClient(port: server.port, sourceAddress: 0x7F00_0002)
        other.send(Self.upload(length: 90, sent: 90, fill: "c"))
        #expect(other.readResponse()?.text == "POST /upload 90")
    }
}
