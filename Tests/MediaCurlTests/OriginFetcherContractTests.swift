import HTTPCaching
import MediaCore
import MediaCurl
import MediaService
import MediaTestSupport
import Testing

/// The behavioural contract of the origin transport (``OriginFetching``), run against
/// ``CurlOriginFetcher``, the only one (``DefaultOriginFetcher``).
@Suite(.timeLimit(.minutes(1))) struct OriginFetcherContractTests {
    /// The transport with defaults except the given tunables.
    static func fetcher(idleTimeout: Double = 10, retryBaseDelay: Double = 0.05,
                        onRetry: (@Sendable (_ attempt: Int, _ error: OriginError) -> Void)? = nil) throws -> any OriginFetching {
        try CurlOriginFetcher(configuration: .init(idleTimeout: idleTimeout, retryBaseDelay: retryBaseDelay), onRetry: onRetry)
    }

    /// gzip of "MARK-GZ" (python3 -c 'import gzip;print(gzip.compress(b"MARK-GZ", mtime=0).hex())').
    static let gzipBody: [UInt8] = [0x1F, 0x8B, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0x03, 0xF3, 0x75, 0x0C, 0xF2, 0xD6,
                                    0x75, 0x8F, 0x02, 0x00, 0x02, 0xE5, 0x61, 0x76, 0x07, 0x00, 0x00, 0x00]

    /// Answers by path: /ok, /redirect, /slow, /big (no length), /declared-big, /dropped.
    static func origin(closedEarly: Locked<Bool>? = nil, flaky: Counter = Counter()) throws -> ScriptedOrigin.Socket {
        try ScriptedOrigin.Socket { request, connection in
            switch request.target {
            case "/flaky":
                if flaky.increment() == 1 { return }
                connection.write("HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok")
            case "/not-modified":
                connection.write("HTTP/1.1 304 Not Modified\r\nETag: \"e1\"\r\nConnection: close\r\n\r\n")
            case "/gzip":
                let body = gzipBody
                connection.write("HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\nContent-Length: \(body.count)\r\n"
                    + "Keep-Alive: timeout=5\r\nConnection: close, X-Hop\r\nX-Hop: 1\r\nTransfer-Encoding: identity\r\n\r\n")
                connection.write(body)
            case "/stall":
                connection.write("HTTP/1.1 200 OK\r\nContent-Length: 1000\r\nConnection: close\r\n\r\n0123456789")
                connection.waitForPeerClose()
            case "/garbage":
                connection.write("SSH-2.0-OpenSSH_9.2\r\n\r\n")
            case "/ok", "/ok?v=1":
                connection.write("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nCache-Control: max-age=60\r\n"
                    + "ETag: \"e1\"\r\nSet-Cookie: sid=S1\r\nContent-Length: 7\r\nConnection: close\r\n\r\nMARK-OK")
            case "/redirect":
                connection.write("HTTP/1.1 302 Found\r\nLocation: /ok\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
            case "/offsite":
                connection.write("HTTP/1.1 301 Moved\r\nLocation: http://evil.example/x\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
            case "/slow":
                connection.waitForPeerClose()
            case "/declared-big":
                connection.write("HTTP/1.1 200 OK\r\nContent-Type: image/jpeg\r\nContent-Length: \(1 << 30)\r\n\r\n")
                connection.waitForPeerClose()
            case "/big":
                // 1 MiB of a body with no length, then hold: the client must hang up.
                connection.write("HTTP/1.1 200 OK\r\nContent-Type: image/jpeg\r\nConnection: close\r\n\r\n")
                let chunk = [UInt8](repeating: 0x41, count: 65536)
                for _ in 0..<16 { connection.write(chunk) }
                let closed = connection.waitForPeerClose()
                closedEarly?.update { $0 = closed }
            default:
                connection.write("HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
            }
        }
    }

    @Test func okBodyFieldsAndForwardedHeaders() async throws {
        let server = try Self.origin()
        defer { server.stop() }
        let fetcher = try Self.fetcher()
        let response = try await fetcher.fetch(OriginRequest(
            url: server.baseURL + "/ok?v=1", fields: ["Authorization": "Bearer t1", "Accept": "image/*"]))
        #expect(response.status == 200)
        #expect(response.body == Array("MARK-OK".utf8))
        #expect(response.fields["Cache-Control"] == "max-age=60")
        #expect(response.fields["ETag"] == "\"e1\"")
        // The origin's order and name case; Content-Length and Connection removed.
        #expect(response.fields == HTTPFields([("Content-Type", "text/plain"), ("Cache-Control", "max-age=60"),
                                               ("ETag", "\"e1\""), ("Set-Cookie", "sid=S1")]))
        let seen = try #require(server.requests.first)
        #expect(seen.method == "GET")
        #expect(seen.target == "/ok?v=1")
        #expect(seen.header("Authorization") == "Bearer t1")
        #expect(seen.header("Accept") == "image/*")
        #expect(seen.header("Cookie") == nil)
        #expect(seen.header("User-Agent") == "mediactl/0.1.0")
    }

    @Test func clientUserAgentIsKept() async throws {
        let server = try Self.origin()
        defer { server.stop() }
        _ = try await Self.fetcher().fetch(OriginRequest(url: server.baseURL + "/ok", fields: ["User-Agent": "app/1.0"]))
        #expect(server.requests.first?.header("User-Agent") == "app/1.0")
    }

    @Test func noCookiesAreStoredOrReplayed() async throws {
        let server = try Self.origin()
        defer { server.stop() }
        let fetcher = try Self.fetcher()
        _ = try await fetcher.fetch(OriginRequest(url: server.baseURL + "/ok"))
        _ = try await fetcher.fetch(OriginRequest(url: server.baseURL + "/ok"))
        #expect(server.requests.count == 2)
        #expect(server.requests.allSatisfy { $0.header("Cookie") == nil })
    }

    @Test func redirectIsReturnedNotFollowed() async throws {
        let server = try Self.origin()
        defer { server.stop() }
        let fetcher = try Self.fetcher()
        let response = try await fetcher.fetch(OriginRequest(url: server.baseURL + "/redirect"))
        #expect(response.status == 302)
        #expect(response.fields["Location"] == "/ok")
        let offsite = try await fetcher.fetch(OriginRequest(url: server.baseURL + "/offsite"))
        #expect(offsite.status == 301)
        #expect(offsite.fields["Location"] == "http://evil.example/x")
        #expect(server.requests.map { $0.target } == ["/redirect", "/offsite"])
    }

    @Test func timeout() async throws {
        let server = try Self.origin()
        defer { server.stop() }
        let fetcher = try Self.fetcher()
        let start = ContinuousClock.now
        await #expect(throws: OriginError(.timeout, "no complete answer within 0.3 s", attempts: 1)) {
            try await fetcher.fetch(OriginRequest(url: server.baseURL + "/slow", timeout: 0.3))
        }
        #expect(start.duration(to: .now) < .seconds(5))
        #expect(server.requests.count <= 1)  // not retried (0 when the timeout came before the request arrived)
    }

    @Test func tooLargeStopsReceivingEarly() async throws {
        let closedEarly = Locked(false)
        let server = try Self.origin(closedEarly: closedEarly)
        defer { server.stop() }
        let fetcher = try Self.fetcher()
        await #expect(throws: OriginError(.tooLarge, "the body exceeds 100000 bytes", attempts: 1)) {
            try await fetcher.fetch(OriginRequest(url: server.baseURL + "/big", maxBodyBytes: 100_000))
        }
        #expect(await server.waitUntilIdle())
        #expect(closedEarly.value)
        #expect(server.requests.count == 1)
    }

    @Test func declaredTooLargeIsRefusedAtTheHead() async throws {
        let server = try Self.origin()
        defer { server.stop() }
        let fetcher = try Self.fetcher()
        await #expect(throws: OriginError(.tooLarge, "Content-Length 1073741824 exceeds 100000 bytes", attempts: 1)) {
            try await fetcher.fetch(OriginRequest(url: server.baseURL + "/declared-big", maxBodyBytes: 100_000))
        }
        #expect(await server.waitUntilIdle())
    }

    @Test func connectionRefusedIsRetriedTwiceForGET() async throws {
        let port = try ScriptedOrigin.Socket.closedPort()
        let retries = Locked<[Int]>([])
        let fetcher = try Self.fetcher(retryBaseDelay: 0.001) { attempt, error in
            retries.update { $0.append(attempt) }
        }
        let error = await #expect(throws: OriginError.self) {
            try await fetcher.fetch(OriginRequest(url: "http://127.0.0.1:\(port)/a.jpg"))
        }
        #expect(error?.code == .connectionFailed)
        #expect(error?.attempts == 3)
        #expect(error?.httpStatus == 502)
        #expect(retries.value == [1, 2])
    }

    @Test func nonIdempotentRequestsAreNotRetried() async throws {
        let port = try ScriptedOrigin.Socket.closedPort()
        let retries = Locked(0)
        let fetcher = try Self.fetcher(retryBaseDelay: 0.001) { _, _ in
            retries.update { $0 += 1 }
        }
        let error = await #expect(throws: OriginError.self) {
            try await fetcher.fetch(OriginRequest(method: "POST", url: "http://127.0.0.1:\(port)/a.jpg"))
        }
        #expect(error?.attempts == 1)
        #expect(retries.value == 0)
    }

    @Test func retriesCanBeTurnedOffForConformanceRoutes() async throws {
        let port = try ScriptedOrigin.Socket.closedPort()
        let retries = Locked(0)
        let fetcher = try Self.fetcher(retryBaseDelay: 0.001) { _, _ in
            retries.update { $0 += 1 }
        }
        let error = await #expect(throws: OriginError.self) {
            try await fetcher.fetch(OriginRequest(url: "http://127.0.0.1:\(port)/a.jpg", allowsRetry: false))
        }
        #expect(error?.code == .connectionFailed)
        #expect(error?.attempts == 1)
        #expect(retries.value == 0)
    }

    @Test func invalidURLs() async throws {
        let fetcher = try Self.fetcher()
        for url in ["not a url", "ftp://127.0.0.1/a", "/relative/path"] {
            await #expect(throws: OriginError(.invalidRequest, "not an absolute http(s) URL")) {
                try await fetcher.fetch(OriginRequest(url: url))
            }
        }
    }

    @Test func cancellationStopsTheFetch() async throws {
        let server = try Self.origin()
        defer { server.stop() }
        let fetcher = try Self.fetcher()
        let task = Task { try await fetcher.fetch(OriginRequest(url: server.baseURL + "/slow", timeout: 30)) }
        #expect(await eventually { server.requests.count == 1 })
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
    }

    @Test func headReturnsNoBodyEvenWithALargeContentLength() async throws {
        let server = try ScriptedOrigin.Socket { _, connection in
            connection.write("HTTP/1.1 200 OK\r\nContent-Length: 50000000\r\nConnection: close\r\n\r\n")
        }
        defer { server.stop() }
        let response = try await Self.fetcher().fetch(OriginRequest(method: "HEAD", url: server.baseURL + "/a", maxBodyBytes: 10))
        #expect(response.status == 200)
        #expect(response.body == [])
        #expect(response.fields == ["Content-Length": "50000000"])
        #expect(server.requests.first?.method == "HEAD")
    }

    @Test func notModifiedPassesThrough() async throws {
        let server = try Self.origin()
        defer { server.stop() }
        let response = try await Self.fetcher().fetch(
            OriginRequest(url: server.baseURL + "/not-modified", fields: ["If-None-Match": "\"e1\""]))
        #expect(response.status == 304)
        #expect(response.fields["ETag"] == "\"e1\"")
        #expect(response.body == [])
        #expect(server.requests.first?.header("If-None-Match") == "\"e1\"")
    }

    @Test func connectionClosedBeforeAResponseIsRetried() async throws {
        let server = try Self.origin()
        defer { server.stop() }
        let retries = Locked<[String]>([])
        let fetcher = try Self.fetcher(retryBaseDelay: 0.001) { attempt, error in
            retries.update { $0.append("\(attempt) \(error.code)") }
        }
        let response = try await fetcher.fetch(OriginRequest(url: server.baseURL + "/flaky"))
        #expect(response.body == Array("ok".utf8))
        #expect(retries.value == ["1 connection-failed"])
        #expect(server.requests.count == 2)
    }

    @Test func nonHTTPAnswerIsAnInvalidResponse() async throws {
        let server = try Self.origin()
        defer { server.stop() }
        await #expect(throws: OriginError(.invalidResponse, "unusable response (curl error 1)", attempts: 1)) {
            try await Self.fetcher().fetch(OriginRequest(url: server.baseURL + "/garbage"))
        }
        #expect(server.requests.count == 1)
    }

    @Test func contentCodingAndHopByHopFields() async throws {
        let server = try Self.origin()
        defer { server.stop() }
        let response = try await Self.fetcher().fetch(OriginRequest(url: server.baseURL + "/gzip"))
        // The bytes and Content-Encoding exactly as the origin sent them; no Accept-Encoding was added.
        #expect(response.body == Self.gzipBody)
        #expect(response.fields == ["Content-Encoding": "gzip"])
        #expect(server.requests.first?.header("Accept-Encoding") == nil)
    }

    @Test func idleConnectionTimesOut() async throws {
        let server = try Self.origin()
        defer { server.stop() }
        let fetcher = try Self.fetcher(idleTimeout: 0.3)
        await #expect(throws: OriginError(.timeout, "the connection was idle too long", attempts: 1)) {
            try await fetcher.fetch(OriginRequest(url: server.baseURL + "/stall", timeout: 30))
        }
    }
}
