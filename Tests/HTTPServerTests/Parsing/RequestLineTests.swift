import Testing
@testable import HTTPServer

@Suite struct RequestLineTests {
    @Test func parsesSimpleGet() {
        let outcome = parse("GET /catalog/a.jpg?v=2 HTTP/1.1\r\nHost: example\r\n\r\n")
        #expect(outcome.error == nil)
        #expect(outcome.requests.count == 1)
        let request = outcome.requests[0]
        #expect(request.method == "GET")
        #expect(request.target == "/catalog/a.jpg?v=2")
        #expect(request.version == .http1_1)
        #expect(pairs(request.headerFields) == [["Host", "example"]])
        #expect(request.body == [])
        #expect(request.hasBody == false)
        #expect(request.keepAlive == true)
        #expect(outcome.needsMoreData == false)
    }

    @Test func sameResultForEveryChunkSize() {
        let input = "POST /upload HTTP/1.1\r\nHost: h\r\nContent-Length: 5\r\nX-A: 1\r\n\r\nhello"
        for size in [1, 2, 3, 7, 64] {
            let outcome = parse(input, chunkSize: size)
            #expect(outcome.error == nil)
            #expect(outcome.requests.count == 1)
            #expect(outcome.requests.first?.body == Array("hello".utf8))
            #expect(pairs(outcome.requests.first?.headerFields ?? []) == [["Host", "h"], ["Content-Length", "5"], ["X-A", "1"]])
        }
    }

    /// RFC 9112 §2.2 lets a recipient accept LF alone; refused, since a front that does not would split differently.
    @Test(arguments: ["GET / HTTP/1.1\nHost: h\r\n\r\n", "GET / HTTP/1.1\r\nHost: h\n\r\n", "GET / HTTP/1.1\r\nHost: h\r\n\n",
                      "\nGET / HTTP/1.1\r\nHost: h\r\n\r\n"])
    func refusesBareLFLineEndings(_ request: String) {
        let outcome = parse(request)
        #expect(outcome.error == HTTPParseError(code: .bareLineFeed, status: 400, message: "a line ended by LF without CR"))
        #expect(outcome.requests.isEmpty)
    }

    @Test(arguments: ["h", "media.example.com", "media.example.com:8080", "127.0.0.1:80", "[::1]:8443", "[2001:db8::1]",
                      "xn--bcher-kva.example", "a%41b", "host:"])
    func acceptsUriHostAndPort(_ host: String) {
        let outcome = parse("GET / HTTP/1.1\r\nHost: \(host)\r\n\r\n")
        #expect(outcome.error == nil, "\(host)")
        #expect(outcome.requests.count == 1)
    }

    @Test(arguments: ["", "a b", "a/b", "a@b", "h:80:81", "h:123456", "h:8x", "[::1", "[]", "[zz]", "a%4", "a\"b", "h?x", "h#x"])
    func refusesHostsThatAreNotUriHostAndPort(_ host: String) {
        let outcome = parse("GET / HTTP/1.1\r\nHost: \(host)\r\n\r\n")
        #expect(outcome.error == HTTPParseError(code: .invalidHost, status: 400, message: "Host is not uri-host[:port]"), "\(host)")
    }

    @Test func skipsEmptyLinesBeforeRequestLine() {
        let outcome = parse("\r\n\r\nGET / HTTP/1.1\r\nHost: h\r\n\r\n")
        #expect(outcome.error == nil)
        #expect(outcome.requests.map(\.target) == ["/"])
    }

    @Test func http10DefaultsToClose() {
        let outcome = parse("GET / HTTP/1.0\r\n\r\n")
        #expect(outcome.requests.count == 1)
        #expect(outcome.requests[0].version == .http1_0)
        #expect(outcome.requests[0].keepAlive == false)
    }

    @Test func http10KeepAliveOnRequest() {
        let outcome = parse("GET / HTTP/1.0\r\nConnection: Keep-Alive\r\n\r\n")
        #expect(outcome.requests[0].keepAlive == true)
    }

    @Test func http11ConnectionCloseInAList() {
        let outcome = parse("GET / HTTP/1.1\r\nHost: h\r\nConnection: foo, Close\r\n\r\n")
        #expect(outcome.requests[0].keepAlive == false)
    }

    @Test(arguments: [
        "GET  / HTTP/1.1\r\n\r\n",
        "GET / HTTP/1.1 \r\n\r\n",
        "GET /\r\n\r\n",
        "G@T / HTTP/1.1\r\n\r\n",
        " GET / HTTP/1.1\r\n\r\n",
        "GET / HTTPS/1.1\r\n\r\n",
        "GET / HTTP/1.10\r\n\r\n",
        "GET /a\u{7F}b HTTP/1.1\r\n\r\n",
    ])
    func malformedRequestLinesAre400(_ input: String) {
        let outcome = parse(input)
        #expect(outcome.error == HTTPParseError(code: .malformedRequestLine, status: 400, message: "malformed request line"))
    }

    @Test func nonASCIITargetIs400() {
        let outcome = parse(bytes: Array("GET /".utf8) + [0xC3, 0xA9] + Array(" HTTP/1.1\r\n\r\n".utf8))
        #expect(outcome.error?.code == .malformedRequestLine)
        #expect(outcome.error?.status == 400)
    }

    @Test func otherVersionsAre505() {
        let outcome = parse("GET / HTTP/2.0\r\n\r\n")
        #expect(outcome.error == HTTPParseError(
            code: .unsupportedVersion, status: 505, message: "HTTP version HTTP/2.0 is not supported"))
    }

    @Test func bareCRInRequestLineIs400() {
        let outcome = parse("GET /a\rb HTTP/1.1\r\n\r\n")
        #expect(outcome.error == HTTPParseError(code: .bareCarriageReturn, status: 400, message: "bare CR in request line"))
    }

    @Test func requestLineAtTheLimitIsAccepted() {
        let target = "/" + String(repeating: "a", count: 8_192 - 13 - 1)
        let line = "GET \(target) HTTP/1.1"
        #expect(line.utf8.count == 8_192)
        let outcome = parse(line + "\r\nHost: h\r\n\r\n")
        #expect(outcome.error == nil)
        #expect(outcome.requests.count == 1)
    }

    @Test func requestLineOverTheLimitIs414() {
        let line = "GET /" + String(repeating: "a", count: 8_192) + " HTTP/1.1"
        let expected = HTTPParseError(code: .requestLineTooLong, status: 414, message: "request line longer than 8192 bytes")
        #expect(parse(line + "\r\n\r\n").error == expected)
        // Detected before the line ends, without waiting for the terminator.
        #expect(parse(line).error == expected)
    }

    /// Found by FuzzRequestParser: an overlong line ended by a bare LF is 414 however it arrives,
    /// since fed byte by byte it fails on length before the LF is read.
    @Test(arguments: [1, 5, Int.max])
    func overlongLineEndedByBareLFIs414ForEveryChunkSize(_ chunkSize: Int) {
        var configuration = HTTPRequestParser.Configuration()
        configuration.maxRequestLineBytes = 16
        let expected = HTTPParseError(code: .requestLineTooLong, status: 414, message: "request line longer than 16 bytes")
        #expect(parse("GET /aaaaaaaaaaaaaaaa HTTP/1.1\n", chunkSize: chunkSize, configuration: configuration).error == expected)
        #expect(parse("GET /aaaaaaaaaaaa\n", chunkSize: chunkSize, configuration: configuration).error == expected)
        // At the limit, the bare LF is what is wrong.
        #expect(parse("GET /aaaaaaaaaaa\n", chunkSize: chunkSize, configuration: configuration).error?.code == .bareLineFeed)
    }

    @Test func failureIsSticky() {
        var parser = HTTPRequestParser()
        parser.append(Array("BAD\r\n".utf8))
        guard case .failure(let first) = parser.next() else {
            Issue.record("expected a failure")
            return
        }
        parser.append(Array("GET / HTTP/1.1\r\nHost: h\r\n\r\n".utf8))
        guard case .failure(let second) = parser.next() else {
            Issue.record("expected the same failure")
            return
        }
        #expect(first == second)
    }
}

@Suite struct RequestTargetTests {
    @Test func pathAndQuery() {
        let request = HTTPServerRequest(method: "GET", target: "/avatars/u1.jpg?v=2&x=?")
        #expect(request.path == "/avatars/u1.jpg")
        #expect(request.query == "v=2&x=?")
        let bare = HTTPServerRequest(method: "GET", target: "/a")
        #expect(bare.path == "/a")
        #expect(bare.query == nil)
        #expect(HTTPServerRequest(method: "GET", target: "/a?").query == "")
    }
}
