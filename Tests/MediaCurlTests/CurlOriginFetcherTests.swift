import Foundation
import Glibc
import HTTPCaching
import MediaCore
@testable import MediaCurl
@testable import MediaService
import MediaTestSupport
import Synchronization
import Testing

/// Curl-only behaviour; the shared contract is in ``OriginFetcherContractTests``.
@Suite(.timeLimit(.minutes(1))) struct CurlOriginFetcherTests {
    /// Answers `MARK-<target>` with a length, keeping the connection open.
    static func keepAliveOrigin(host: String = "127.0.0.1") throws -> KeepAliveOrigin {
        try KeepAliveOrigin(host: host) { request, connection in
            let body = "MARK-" + request.target
            connection.write("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: \(body.utf8.count)\r\n\r\n" + body)
            return true
        }
    }

    @Test func defaultConfiguration() throws {
        let fetcher = try CurlOriginFetcher()
        #expect(fetcher.configuration == .init(idleTimeout: 10, connectTimeout: nil, maxRetries: 2, retryBaseDelay: 0.05,
                                               maxConnectionsPerHost: 0, maxTotalConnections: 0, maxIdleConnections: 64,
                                               userAgent: "mediactl/0.1.0"))
        #expect(fetcher.libcurlVersion.hasPrefix("7.") || fetcher.libcurlVersion.hasPrefix("8."))
    }

    @Test(.enabled(if: KeepAliveOrigin.hasIPv6Loopback, "no IPv6 loopback (::1) in this sandbox"))
    func ipv6LiteralOrigin() async throws {
        let origin = try Self.keepAliveOrigin(host: "::1")
        defer { origin.stop() }
        #expect(origin.baseURL == "http://[::1]:\(origin.port)")
        let response = try await CurlOriginFetcher().fetch(OriginRequest(url: origin.baseURL + "/v6.jpg"))
        #expect(response.status == 200)
        #expect(response.body == Array("MARK-/v6.jpg".utf8))
        #expect(response.fields == ["Content-Type": "text/plain"])
        #expect(origin.requests.first?.head.contains("\r\nHost: [::1]:\(origin.port)\r\n") == true)
    }

    @Test func requestHeadCarriesOnlyTheRequestFields() async throws {
        let origin = try Self.keepAliveOrigin()
        defer { origin.stop() }
        let fetcher = try CurlOriginFetcher()
        _ = try await fetcher.fetch(OriginRequest(url: origin.baseURL + "/a.jpg"))
        _ = try await fetcher.fetch(OriginRequest(url: origin.baseURL + "/b.jpg?x=1",
                                                  fields: HTTPFields([("Accept", "image/webp"), ("X-Empty", ""), ("If-None-Match", "\"e1\"")])))
        let heads = origin.requests.map(\.head)
        // No Accept: */*, no Accept-Encoding, no Expect: only Host, our User-Agent and the request's fields.
        #expect(heads == [
            "GET /a.jpg HTTP/1.1\r\nHost: 127.0.0.1:\(origin.port)\r\nUser-Agent: mediactl/0.1.0\r\n\r\n",
            "GET /b.jpg?x=1 HTTP/1.1\r\nHost: 127.0.0.1:\(origin.port)\r\nAccept: image/webp\r\nX-Empty:\r\n"
                + "If-None-Match: \"e1\"\r\nUser-Agent: mediactl/0.1.0\r\n\r\n",
        ])
    }

    @Test func postSendsTheBodyWithoutExpectOrFormContentType() async throws {
        let origin = try Self.keepAliveOrigin()
        defer { origin.stop() }
        let response = try await CurlOriginFetcher().fetch(OriginRequest(
            method: "POST", url: origin.baseURL + "/upload", body: Array("payload".utf8)))
        #expect(response.status == 200)
        let seen = try #require(origin.requests.first)
        #expect(seen.head == "POST /upload HTTP/1.1\r\nHost: 127.0.0.1:\(origin.port)\r\nUser-Agent: mediactl/0.1.0\r\n"
            + "Content-Length: 7\r\n\r\n")
        #expect(seen.body == Array("payload".utf8))
    }

    @Test func customMethodWithoutBody() async throws {
        let origin = try Self.keepAliveOrigin()
        defer { origin.stop() }
        _ = try await CurlOriginFetcher().fetch(OriginRequest(method: "DELETE", url: origin.baseURL + "/x"))
        #expect(origin.requests.map(\.head) == ["DELETE /x HTTP/1.1\r\nHost: 127.0.0.1:\(origin.port)\r\nUser-Agent: mediactl/0.1.0\r\n\r\n"])
    }

    @Test func keepAliveReusesOneConnection() async throws {
        let origin = try Self.keepAliveOrigin()
        defer { origin.stop() }
        let fetcher = try CurlOriginFetcher()
        for index in 0..<10 {
            let response = try await fetcher.fetch(OriginRequest(url: origin.baseURL + "/k\(index)"))
            #expect(response.body == Array("MARK-/k\(index)".utf8))
        }
        #expect(origin.requests.count == 10)
        #expect(origin.connectionCount == 1)
        #expect(Set(origin.requests.map(\.connection)) == [1])
    }

    @Test func releasingTheFetcherClosesItsConnections() async throws {
        let origin = try Self.keepAliveOrigin()
        defer { origin.stop() }
        var fetcher: CurlOriginFetcher? = try CurlOriginFetcher()
        _ = try await fetcher?.fetch(OriginRequest(url: origin.baseURL + "/once"))
        #expect(origin.peerClosedCount == 0)
        fetcher = nil
        #expect(await eventually { origin.peerClosedCount == 1 })
        #expect(origin.connectionCount == 1)
    }

    @Test func hundredConcurrentFetchesToOneHostAreAllInFlight() async throws {
        let arrived = Atomic<Int>(0)
        let answeredEarly = Atomic<Int>(0)
        let origin = try KeepAliveOrigin { request, connection in
            arrived.add(1, ordering: .acquiringAndReleasing)
            // Answer only once all 100 requests are in (at most 20 s): none may wait behind a limit.
            var waited = 0
            while arrived.load(ordering: .acquiring) < 100, waited < 20_000 {
                usleep(1000)
                waited += 1
            }
            if arrived.load(ordering: .acquiring) < 100 { answeredEarly.add(1, ordering: .relaxed) }
            connection.write("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok")
            return true
        }
        defer { origin.stop() }
        let fetcher = try CurlOriginFetcher()
        let statuses = try await withThrowingTaskGroup(of: HTTPStatus.self) { group in
            for index in 0..<100 {
                group.addTask { try await fetcher.fetch(OriginRequest(url: origin.baseURL + "/c\(index)", timeout: 30)).status }
            }
            return try await group.reduce(into: [HTTPStatus]()) { $0.append($1) }
        }
        #expect(statuses == Array(repeating: 200, count: 100))
        #expect(origin.connectionCount == 100)
        #expect(answeredEarly.load(ordering: .relaxed) == 0)
    }

    @Test func tooLargeDropsTheConnectionAndTheNextFetchConnectsAgain() async throws {
        let origin = try KeepAliveOrigin { request, connection in
            switch request.target {
            case "/declared":
                connection.write("HTTP/1.1 200 OK\r\nContent-Length: 5000\r\n\r\n")
                connection.write([UInt8](repeating: 0x42, count: 5000))
            case "/chunked":
                connection.write("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n")
                for _ in 0..<5 { connection.write("3e8\r\n" + String(repeating: "C", count: 1000) + "\r\n") }
                connection.write("0\r\n\r\n")
            default:
                connection.write("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok")
            }
            return true
        }
        defer { origin.stop() }
        let fetcher = try CurlOriginFetcher()
        await #expect(throws: OriginError(.tooLarge, "Content-Length 5000 exceeds 1000 bytes", attempts: 1)) {
            try await fetcher.fetch(OriginRequest(url: origin.baseURL + "/declared", maxBodyBytes: 1000))
        }
        #expect(await eventually { origin.peerClosedCount == 1 })
        await #expect(throws: OriginError(.tooLarge, "the body exceeds 1000 bytes", attempts: 1)) {
            try await fetcher.fetch(OriginRequest(url: origin.baseURL + "/chunked", maxBodyBytes: 1000))
        }
        #expect(await eventually { origin.peerClosedCount == 2 })
        let after = try await fetcher.fetch(OriginRequest(url: origin.baseURL + "/small", maxBodyBytes: 1000))
        #expect(after.body == Array("ok".utf8))
        #expect(origin.connectionCount == 3)
        // Exactly at the limit is accepted.
        let exact = try await fetcher.fetch(OriginRequest(url: origin.baseURL + "/small", maxBodyBytes: 2))
        #expect(exact.body == Array("ok".utf8))
    }

    @Test func cancellationDropsTheConnectionAndTheFetcherGoesOn() async throws {
        let origin = try KeepAliveOrigin { request, connection in
            if request.target == "/hang" {
                connection.waitForPeerClose()
                return false
            }
            connection.write("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok")
            return true
        }
        defer { origin.stop() }
        let fetcher = try CurlOriginFetcher()
        let task = Task { try await fetcher.fetch(OriginRequest(url: origin.baseURL + "/hang", timeout: 30)) }
        #expect(await eventually { origin.requests.count == 1 })
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        let next = try await fetcher.fetch(OriginRequest(url: origin.baseURL + "/ok"))
        #expect(next.body == Array("ok".utf8))
        // A task cancelled before it starts never reaches the origin.
        let early = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await fetcher.fetch(OriginRequest(url: origin.baseURL + "/never"))
        }
        await #expect(throws: CancellationError.self) { try await early.value }
        #expect(origin.requests.map(\.target) == ["/hang", "/ok"])
    }

    @Test func idleStallAfterSomeBytesIsNoticedLongBeforeTheRequestTimeout() async throws {
        let origin = try KeepAliveOrigin { _, connection in
            connection.write("HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n0123456789")
            connection.waitForPeerClose()
            return false
        }
        defer { origin.stop() }
        let fetcher = try CurlOriginFetcher(configuration: .init(idleTimeout: 0.3))
        let start = ContinuousClock.now
        await #expect(throws: OriginError(.timeout, "the connection was idle too long", attempts: 1)) {
            try await fetcher.fetch(OriginRequest(url: origin.baseURL + "/stall", timeout: 30))
        }
        #expect(start.duration(to: .now) < .seconds(10))  // far below the request's 30 s: the idle timeout fired
    }

    /// The idle timeout starts with the status line: an origin that thinks longer than it before
    /// answering is bounded by the request's timeout (the tier's originTimeout) alone.
    @Test func waitingForTheHeadIsBoundedByTheRequestTimeoutNotTheIdleTimeout() async throws {
        let origin = try KeepAliveOrigin { _, connection in
            usleep(1_200_000)
            connection.write("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok")
            return false
        }
        defer { origin.stop() }
        let fetcher = try CurlOriginFetcher(configuration: .init(idleTimeout: 0.3))
        let response = try await fetcher.fetch(OriginRequest(url: origin.baseURL + "/thinking", timeout: 30))
        #expect(response.status == 200)
        #expect(response.body == Array("ok".utf8))
    }

    @Test func totalTimeoutIsNotRetried() async throws {
        let retries = Counter()
        let origin = try KeepAliveOrigin { _, connection in
            connection.waitForPeerClose()
            return false
        }
        defer { origin.stop() }
        let fetcher = try CurlOriginFetcher(configuration: .init(retryBaseDelay: 0.001)) { _, _ in retries.increment() }
        await #expect(throws: OriginError(.timeout, "no complete answer within 0.2 s", attempts: 1)) {
            try await fetcher.fetch(OriginRequest(url: origin.baseURL + "/slow", timeout: 0.2))
        }
        #expect(retries.value == 0)
        #expect(origin.requests.count <= 1)  // not retried (0 when the timeout came before the request arrived)
    }

    @Test func interimResponsesTrailersAndHopByHopFieldsAreDropped() async throws {
        let origin = try KeepAliveOrigin { _, connection in
            connection.write("HTTP/1.1 103 Early Hints\r\nLink: </a.css>; rel=preload\r\n\r\n"
                + "HTTP/1.1 200 OK\r\nContent-Type: image/jpeg\r\nProxy-Authenticate: Basic\r\nConnection: X-Hop\r\n"
                + "X-Hop: 1\r\nX-Folded: a\r\n  b\r\nTrailer: X-Sum\r\nTransfer-Encoding: chunked\r\n\r\n"
                + "4\r\nJPEG\r\n0\r\nX-Sum: 9\r\n\r\n")
            return true
        }
        defer { origin.stop() }
        let response = try await CurlOriginFetcher().fetch(OriginRequest(url: origin.baseURL + "/img"))
        #expect(response.status == 200)
        #expect(response.body == Array("JPEG".utf8))
        #expect(response.fields == HTTPFields([("Content-Type", "image/jpeg"), ("X-Folded", "a b")]))
    }

    @Test func repeatedFieldLinesStaySeparate() async throws {
        let origin = try KeepAliveOrigin { _, connection in
            connection.write("HTTP/1.1 200 OK\r\nSet-Cookie: a=1\r\nSet-Cookie: b=2\r\nVary: Accept\r\nContent-Length: 0\r\n\r\n")
            return true
        }
        defer { origin.stop() }
        let response = try await CurlOriginFetcher().fetch(OriginRequest(url: origin.baseURL + "/c"))
        #expect(response.fields.values(for: "Set-Cookie") == ["a=1", "b=2"])
        #expect(response.fields == HTTPFields([("Set-Cookie", "a=1"), ("Set-Cookie", "b=2"), ("Vary", "Accept")]))
        #expect(response.body == [])
    }

    @Test func notModifiedAndNoContentWithALargeContentLengthAreNotTooLarge() async throws {
        let origin = try KeepAliveOrigin { request, connection in
            let status = request.target == "/304" ? "304 Not Modified" : "204 No Content"
            connection.write("HTTP/1.1 \(status)\r\nETag: \"e1\"\r\nContent-Length: 50000000\r\n\r\n")
            return true
        }
        defer { origin.stop() }
        let fetcher = try CurlOriginFetcher()
        let notModified = try await fetcher.fetch(OriginRequest(url: origin.baseURL + "/304", maxBodyBytes: 10))
        #expect(notModified.status == 304)
        #expect(notModified.fields == ["ETag": "\"e1\""])
        let noContent = try await fetcher.fetch(OriginRequest(url: origin.baseURL + "/204", maxBodyBytes: 10))
        #expect(noContent.status == 204)
        #expect(noContent.body == [])
        #expect(origin.connectionCount == 1)
    }

    /// The CURLcode mapping, code by code (unresolvable hosts are not fetched: DNS timing is the machine's).
    @Test func curlCodesMapToOriginErrors() {
        func describe(_ error: any Error) -> String {
            switch error {
            case let failure as OriginAttemptFailure: return "\(failure.error.code) \(failure.retryable ? "retry" : "final"): \(failure.error.context)"
            case let origin as OriginError: return "\(origin.code) final: \(origin.context)"
            default: return "\(type(of: error))"
            }
        }
        let cases: [(Int32, Bool, String)] = [
            (6, false, "connection-failed retry: cannot connect (curl error 6)"),
            (7, false, "connection-failed retry: cannot connect (curl error 7)"),
            (52, false, "connection-failed retry: the connection closed before a response (curl error 52)"),
            (56, false, "connection-failed retry: the connection closed before a response (curl error 56)"),
            (56, true, "invalid-response final: the connection broke during the response (curl error 56)"),
            (55, true, "invalid-response final: the connection broke during the response (curl error 55)"),
            (35, false, "connection-failed final: TLS failure (curl error 35)"),
            (60, false, "connection-failed final: TLS failure (curl error 60)"),
            (3, false, "invalid-request final: not an absolute http(s) URL"),
            (1, false, "invalid-response final: unusable response (curl error 1)"),
            (8, true, "invalid-response final: not a valid HTTP response (curl error 8)"),
            (27, true, "invalid-response final: the response head is over libcurl's limit, or memory ran out (curl error 27)"),
            (100, true, "invalid-response final: the response head is over libcurl's limit, or memory ran out (curl error 100)"),
            (61, true, "invalid-response final: the origin's content coding cannot be decoded (curl error 61)"),
            (18, true, "invalid-response final: the connection closed before the whole body arrived (curl error 18)"),
        ]
        for (code, responded, expected) in cases {
            #expect(describe(CurlTransfer.error(for: code, responded: responded, timedOutInFull: false, timeout: 15)) == expected)
        }
        #expect(describe(CurlTransfer.error(for: 28, responded: false, timedOutInFull: true, timeout: 2.5))
            == "timeout final: no complete answer within 2.5 s")
        #expect(describe(CurlTransfer.error(for: 28, responded: true, timedOutInFull: false, timeout: 2.5))
            == "timeout final: the connection was idle too long")
    }

    @Test func urlChecks() {
        for url in ["http://a", "HTTPS://a.example/x?y", "http://[::1]:8081/", "http://127.0.0.1:1/a b".replacingOccurrences(of: " ", with: "")] {
            #expect(CurlOriginFetcher.isAbsoluteHTTPURL(url), "\(url)")
        }
        for url in ["", "http://", "https://", "http:///path", "ftp://a/", "http://a/b c", "http://a/\n", "mailto:x@y", "/relative"] {
            #expect(!CurlOriginFetcher.isAbsoluteHTTPURL(url), "\(url)")
        }
    }
}
