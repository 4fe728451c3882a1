import Glibc
import Testing
@testable import HTTPServer

@Suite struct ServerExchangeTests {
    @Test func keepAliveServesSequentialRequestsOnOneConnection() throws {
        let server = try startServer(EchoHandler())
        defer { server.stop() }
        #expect(server.port > 0)
        let client = try TestClient(port: server.port)
        for index in 1...3 {
            client.send("GET /n\(index) HTTP/1.1\r\nHost: t\r\n\r\n")
            let response = try #require(client.readResponse())
            #expect(response.status == 200)
            #expect(response.reason == "OK")
            #expect(response.text == "GET /n\(index) 0")
            #expect(response.field("content-length") == "\(response.text.utf8.count)")
            #expect(response.field("content-type") == "text/plain")
            #expect(response.field("connection") == nil)
            #expect(response.field("date")?.hasSuffix(" GMT") == true)
        }
    }

    @Test func pipelinedRequestsAreAnsweredInOrder() throws {
        let server = try startServer(EchoHandler())
        defer { server.stop() }
        let client = try TestClient(port: server.port)
        client.send(
            "GET /1 HTTP/1.1\r\nHost: t\r\n\r\n"
                + "POST /2 HTTP/1.1\r\nHost: t\r\nContent-Length: 4\r\n\r\nabcd"
                + "HEAD /big HTTP/1.1\r\nHost: t\r\n\r\n"
                + "POST /4 HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nxyz\r\n0\r\n\r\n"
                + "GET /5 HTTP/1.1\r\nHost: t\r\n\r\n")
        #expect(client.readResponse()?.text == "GET /1 0")
        #expect(client.readResponse()?.text == "POST /2 4")
        let head = try #require(client.readResponse(headRequest: true))
        #expect(head.field("content-length") == "16384")
        #expect(head.body == [])
        #expect(client.readResponse()?.text == "POST /4 3")
        #expect(client.readResponse()?.text == "GET /5 0")
    }

    @Test func headHasNoBodyAndTheConnectionStaysUsable() throws {
        let server = try startServer(EchoHandler())
        defer { server.stop() }
        let client = try TestClient(port: server.port)
        client.send("HEAD /big HTTP/1.1\r\nHost: t\r\n\r\n")
        let head = try #require(client.readResponse(headRequest: true))
        #expect(head.status == 200)
        #expect(head.field("content-length") == "16384")
        client.send("GET /big HTTP/1.1\r\nHost: t\r\n\r\n")
        let get = try #require(client.readResponse())
        #expect(get.body == [UInt8](repeating: 0x61, count: 16_384))
    }

    @Test func connectionCloseIsHonoured() throws {
        let server = try startServer(EchoHandler())
        defer { server.stop() }
        let client = try TestClient(port: server.port)
        client.send("GET /x HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\nGET /ignored HTTP/1.1\r\nHost: t\r\n\r\n")
        let response = try #require(client.readResponse())
        #expect(response.text == "GET /x 0")
        #expect(response.field("connection") == "close")
        #expect(client.isClosedByPeer())
    }

    @Test func handlerCanCloseTheConnection() throws {
        let server = try startServer(EchoHandler())
        defer { server.stop() }
        let client = try TestClient(port: server.port)
        client.send("GET /close HTTP/1.1\r\nHost: t\r\n\r\n")
        let response = try #require(client.readResponse())
        #expect(response.text == "bye")
        #expect(response.field("connection") == "close")
        #expect(client.isClosedByPeer())
    }

    @Test func http10ClosesUnlessKeepAlive() throws {
        let server = try startServer(EchoHandler())
        defer { server.stop() }
        let keep = try TestClient(port: server.port)
        keep.send("GET /a HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
        let first = try #require(keep.readResponse())
        #expect(first.field("connection") == "keep-alive")
        keep.send("GET /b HTTP/1.0\r\n\r\n")
        let second = try #require(keep.readResponse())
        #expect(second.text == "GET /b 0")
        #expect(second.field("connection") == "close")
        #expect(keep.isClosedByPeer())
    }

    @Test func asyncHandlerPath() async throws {
        let server = try startServer(EchoHandler(useAsync: true))
        defer { server.stop() }
        let port = server.port
        let texts = try await offPool { () throws -> [String?] in
            let client = try TestClient(port: port)
            return (1...3).map { index in
                client.send("POST /async\(index) HTTP/1.1\r\nHost: t\r\nContent-Length: 2\r\n\r\nhi")
                return client.readResponse()?.text
            }
        }
        #expect(texts == ["POST /async1 2", "POST /async2 2", "POST /async3 2"])
    }

    @Test func getWithBodyReachesTheHandler() throws {
        let server = try startServer(EchoHandler())
        defer { server.stop() }
        let client = try TestClient(port: server.port)
        client.send("GET /x HTTP/1.1\r\nHost: t\r\nContent-Length: 1\r\n\r\nz")
        let response = try #require(client.readResponse())
        #expect(response.status == 400)
        #expect(response.text == #"{"code":"malformed-request","detail":"GET with a body","status":400,"title":"Bad Request","type":"https://mediactl.dev/problems/malformed-request"}"#)
    }

    @Test func expectContinueGetsAnInterimResponse() throws {
        let server = try startServer(EchoHandler())
        defer { server.stop() }
        let client = try TestClient(port: server.port)
        client.send("PUT /up HTTP/1.1\r\nHost: t\r\nExpect: 100-continue\r\nContent-Length: 5\r\n\r\n")
        let interim = try #require(client.readResponse())
        #expect(interim.status == 100)
        #expect(interim.reason == "Continue")
        client.send("hello")
        #expect(client.readResponse()?.text == "PUT /up 5")
    }

    @Test func parseErrorsAreAnsweredAsProblemsAndClose() throws {
        let server = try startServer(EchoHandler()) {
            $0.parser.maxBodyBytes = 4
        }
        defer { server.stop() }
        let cases: [(String, Int, String)] = [
            ("GET /" + String(repeating: "a", count: 9_000) + " HTTP/1.1\r\n\r\n", 414, "request line longer than 8192 bytes"),
            ("GET / HTTP/1.1\r\nHost: t\r\nX: " + String(repeating: "v", count: 70_000) + "\r\n\r\n", 431,
             "header section longer than 65536 bytes"),
            ("POST / HTTP/1.1\r\nHost: t\r\nContent-Length: 5\r\n\r\nhello", 413, "body longer than 4 bytes"),
            ("GET / HTTP/1.1\r\nHost: t\r\nContent-Length: 1\r\nTransfer-Encoding: chunked\r\n\r\n", 400,
             "both Content-Length and Transfer-Encoding"),
        ]
        for (input, status, detail) in cases {
            let client = try TestClient(port: server.port)
            client.send(input)
            let response = try #require(client.readResponse())
            #expect(response.status == status)
            #expect(response.field("connection") == "close")
            #expect(response.field("content-type") == "application/problem+json")
            let title = HTTPServerResponse.reasonPhrase(for: status)
            let code = ["400": "conflicting-framing", "413": "body-too-large", "414": "request-line-too-long",
                        "431": "header-section-too-large"]["\(status)"]!
            // The same fields as the service's problems (docs/bff-integration.md).
            #expect(response.field("cache-control") == "no-store")
            #expect(response.field("x-content-type-options") == "nosniff")
            #expect(response.text == #"{"code":"\#(code)","detail":"\#(detail)","status":\#(status),"title":"\#(title)","type":"https://mediactl.dev/problems/\#(code)"}"#)
            #expect(client.isClosedByPeer())
        }
        #expect(server.statistics.parseErrors == 4)
        #expect(server.statistics.requests == 0)
    }

    @Test func tooLargeBodyStillBeingSentGets413NotAReset() throws {
        let server = try startServer(EchoHandler()) { $0.parser.maxBodyBytes = 1_000 }
        defer { server.stop() }
        let client = try TestClient(port: server.port)
        client.send("POST /up HTTP/1.1\r\nHost: t\r\nContent-Length: 300000\r\n\r\n")
        client.send([UInt8](repeating: 0x62, count: 300_000))
        let response = try #require(client.readResponse())
        #expect(response.status == 413)
        #expect(response.field("connection") == "close")
    }

    @Test func remoteAddressIsThePeer() async throws {
        struct PeerHandler: HTTPHandling {
            func handle(_ request: HTTPServerRequest) async -> HTTPServerResponse {
                HTTPServerResponse(status: 200, body: Array(request.remoteAddress.utf8))
            }
        }
        let server = try startServer(PeerHandler())
        defer { server.stop() }
        let port = server.port
        let text = try await offPool { () throws -> String? in
            let client = try TestClient(port: port)
            client.send("GET / HTTP/1.1\r\nHost: t\r\n\r\n")
            return client.readResponse()?.text
        }
        let response = try #require(text)
        #expect(response.hasPrefix("127.0.0.1:"))
        #expect(Int(response.dropFirst("127.0.0.1:".count)) != nil)
    }
}

@Suite struct ServerStartTests {
    @Test func invalidHostIsRefused() {
        let server = HTTPServer(configuration: .init(host: "localhost", port: 0), handler: EchoHandler())
        #expect(throws: HTTPServerError(code: .invalidAddress, message: "localhost is not a numeric IPv4 address")) {
            try server.start()
        }
    }

    /// Only dotted quads and RFC 4291 text: the shorthand forms `inet_aton` takes are refused.
    @Test func shorthandAndMalformedAddressesAreRefused() {
        for (host, family) in [("127.1", "IPv4"), ("0x7f.0.0.1", "IPv4"), ("2130706433", "IPv4"), ("::1::", "IPv6"),
                               ("fe80::1%nonexistent0", "IPv6")] {
            let server = HTTPServer(configuration: .init(host: host, port: 0), handler: EchoHandler())
            #expect(throws: HTTPServerError(code: .invalidAddress, message: "\(host) is not a numeric \(family) address")) {
                try server.start()
            }
        }
    }

    @Test func portOutOfRangeIsRefused() {
        let server = HTTPServer(configuration: .init(port: 70_000), handler: EchoHandler())
        #expect(throws: HTTPServerError(code: .invalidAddress, message: "port 70000 is outside 0...65535")) {
            try server.start()
        }
    }

    @Test func portInUseIsABindFailureAndStartCanBeRetried() throws {
        let first = try startServer(EchoHandler())
        let port = first.port
        let second = HTTPServer(configuration: .init(port: port), handler: EchoHandler())
        #expect(throws: HTTPServerError(
            code: .bindFailed, message: "bind 127.0.0.1:\(port): Address already in use (errno 98)", errno: EADDRINUSE)) {
            try second.start()
        }
        first.stop()
        #expect(try second.start() == port)
        defer { second.stop() }
        let client = try TestClient(port: port)
        client.send("GET /retry HTTP/1.1\r\nHost: t\r\n\r\n")
        #expect(client.readResponse()?.text == "GET /retry 0")
    }

    @Test func startingTwiceIsRefused() throws {
        let server = try startServer(EchoHandler())
        defer { server.stop() }
        #expect(throws: HTTPServerError(code: .alreadyStarted, message: "the server was already started")) {
            try server.start()
        }
    }

    @Test func ipv6LoopbackWorks() throws {
        let server = HTTPServer(configuration: .init(host: "::1", port: 0), handler: EchoHandler())
        do { try server.start() } catch { return }  // no IPv6 on this machine: nothing to test
        defer { server.stop() }
        #expect(server.port > 0)
    }
}
