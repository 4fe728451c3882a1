import Foundation
import Glibc
import HTTPCaching
@testable import MediaCurl
@testable import MediaService
import MediaTestSupport
import Testing

/// Edge cases of the libcurl transport, one test each: a slow head is not an idle timeout, cancellations racing
/// answers, backoff past the deadline, the decoded-body limit, a head arriving line by line, stopping the engine.
@Suite(.timeLimit(.minutes(1))) struct CurlTransportEdgeTests {
    /// libcurl's low-speed check (`CURLOPT_LOW_SPEED_*`) runs from the moment the request is sent:
    /// it must not fail an origin that thinks for longer than the idle timeout's whole seconds
    /// before its status line (only the request's timeout bounds that wait).
    @Test func thinkingForSecondsBeforeTheHeadIsNotAnIdleTimeout() async throws {
        let origin = try KeepAliveOrigin { _, connection in
            usleep(2_500_000)
            connection.write("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok")
            return false
        }
        defer { origin.stop() }
        let fetcher = try CurlOriginFetcher(configuration: .init(idleTimeout: 1))
        let response = try await fetcher.fetch(OriginRequest(url: origin.baseURL + "/thinking", timeout: 30))
        #expect(response.status == 200)
        #expect(response.body == Array("ok".utf8))
    }

    /// An interim `103 Early Hints` is not the response's status line: the origin is still working
    /// on its answer, so the idle timeout does not start with it.
    @Test func interimResponseDoesNotStartTheIdleTimeout() async throws {
        let origin = try KeepAliveOrigin { _, connection in
            connection.write("HTTP/1.1 103 Early Hints\r\nLink: </a.css>; rel=preload\r\n\r\n")
            usleep(1_500_000)
            connection.write("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok")
            return false
        }
        defer { origin.stop() }
        let fetcher = try CurlOriginFetcher(configuration: .init(idleTimeout: 0.3))
        let response = try await fetcher.fetch(OriginRequest(url: origin.baseURL + "/hints", timeout: 30))
        #expect(response.status == 200)
        #expect(response.body == Array("ok".utf8))
    }

    /// Cancellation racing submission, the answer and completion: every fetch ends exactly once
    /// (an answer or `CancellationError`; a double resume would trap), and the fetcher goes on.
    @Test func cancellationsRacingAnswersEndEveryFetchOnce() async throws {
        let origin = try KeepAliveOrigin { request, connection in
            let index = Int(request.target.dropFirst(2)) ?? 0
            usleep(UInt32(index % 5) * 1000)
            connection.write("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok")
            return true
        }
        defer { origin.stop() }
        let fetcher = try CurlOriginFetcher()
        for round in 0..<3 {
            let outcomes = await withTaskGroup(of: String.self) { group in
                for index in 0..<60 {
                    let task = Task { try await fetcher.fetch(OriginRequest(url: origin.baseURL + "/r\(index)")) }
                    group.addTask {
                        try? await Task.sleep(for: .microseconds((index * 317 + round * 101) % 6000))
                        task.cancel()
                        do { return "\(try await task.value.status)" } catch is CancellationError { return "cancelled" } catch { return "\(error)" }
                    }
                }
                return await group.reduce(into: Set<String>()) { $0.insert($1) }
            }
            #expect(outcomes.isSubset(of: ["200", "cancelled"]), "\(outcomes)")
        }
        let after = try await fetcher.fetch(OriginRequest(url: origin.baseURL + "/r0"))
        #expect(after.body == Array("ok".utf8))
    }

    /// A retry whose backoff would end past the fetch's deadline is not made: the connection
    /// failure is thrown at once, not a `timeout` after sleeping beyond `OriginRequest.timeout`.
    @Test func backoffPastTheDeadlineThrowsTheConnectionFailureAtOnce() async throws {
        let port = try ScriptedOrigin.Socket.closedPort()
        let retries = Counter()
        let fetcher = try CurlOriginFetcher(configuration: .init(retryBaseDelay: 5)) { _, _ in retries.increment() }
        let start = ContinuousClock.now
        await #expect(throws: OriginError(.connectionFailed, "cannot connect (curl error 7)", attempts: 1)) {
            try await fetcher.fetch(OriginRequest(url: "http://127.0.0.1:\(port)/a.jpg", timeout: 1))
        }
        #expect(start.duration(to: .now) < .seconds(4))  // no 5 s backoff slept (attempts: 1 says no retry either)
        #expect(retries.value == 0)
    }

    /// With ``OriginRequest/decodesContentCoding``, `maxBodyBytes` bounds the decoded bytes: a coded
    /// body whose `Content-Length` (coded bytes) is over the limit but which decodes to no more
    /// than it is accepted. Here a gzip "stored" block: 123 coded bytes for 100 decoded.
    @Test func decodedLimitIsNotAppliedToTheCodedContentLength() async throws {
        let decoded = Array(String(repeating: "MARK", count: 25).utf8)
        let gzip: [UInt8] = [31, 139, 8, 0, 0, 0, 0, 0, 0, 3, 1, 100, 0, 155, 255] + decoded + [55, 163, 139, 247, 100, 0, 0, 0]
        let origin = try CurlContentDecodingTests.origin(gzip, coding: "gzip")
        defer { origin.stop() }
        let fetcher = try CurlOriginFetcher()
        let response = try await fetcher.fetch(OriginRequest(url: origin.baseURL + "/stored.jpg", maxBodyBytes: 100,
                                                             decodesContentCoding: true))
        #expect(response.status == 200)
        #expect(response.body == decoded)
        #expect(response.fields == ["Content-Type": "image/jpeg", "ETag": "\"e\""])
        // One byte less decoded is too large; undecoded, the coded length is what counts. A fresh fetcher
        // each time: a refused body closes its connection, and a request that met that closed connection in
        // the pool would be retried (attempts: 2), which is right but not what this test is about.
        await #expect(throws: OriginError(.tooLarge, "the body exceeds 99 bytes", attempts: 1)) {
            try await CurlOriginFetcher().fetch(
                OriginRequest(url: origin.baseURL + "/stored.jpg", maxBodyBytes: 99, decodesContentCoding: true))
        }
        await #expect(throws: OriginError(.tooLarge, "Content-Length 123 exceeds 122 bytes", attempts: 1)) {
            try await CurlOriginFetcher().fetch(OriginRequest(url: origin.baseURL + "/stored.jpg", maxBodyBytes: 122))
        }
    }

    /// Header lines are bytes moving: a head that arrives line by line, each within the idle
    /// timeout, is not a stall although the whole head takes longer than it.
    @Test func aHeadArrivingLineByLineIsNotAStall() async throws {
        let origin = try KeepAliveOrigin { _, connection in
            connection.write("HTTP/1.1 200 OK\r\n")
            for index in 0..<6 {
                usleep(250_000)
                connection.write("X-Line-\(index): \(index)\r\n")
            }
            connection.write("Content-Length: 2\r\n\r\nok")
            return false
        }
        defer { origin.stop() }
        let fetcher = try CurlOriginFetcher(configuration: .init(idleTimeout: 1))
        let response = try await fetcher.fetch(OriginRequest(url: origin.baseURL + "/slow-head", timeout: 30))
        #expect(response.status == 200)
        #expect(response.fields.values(for: "X-Line-5") == ["5"])
        #expect(response.body == Array("ok".utf8))
    }

    /// Stopping the engine ends every transfer exactly once: one in flight (its connection closed)
    /// and one handed over after the stop (never left waiting: no thread would ever resume it).
    @Test func stoppingTheEngineEndsTransfersInFlightAndLaterOnes() async throws {
        let closed = Counter()
        let origin = try KeepAliveOrigin { _, connection in
            if connection.waitForPeerClose() { _ = closed.increment() }
            return false
        }
        defer { origin.stop() }
        let engine = try CurlEngine(library: CurlLibrary.shared.get(), configuration: .init())
        let inFlight = Task { try await engine.perform(OriginRequest(url: origin.baseURL + "/hang"), remaining: .seconds(30)) }
        #expect(await eventually { origin.requests.count == 1 })
        engine.stop()
        await #expect(throws: CancellationError.self) { try await inFlight.value }
        #expect(await eventually { closed.value == 1 })
        await #expect(throws: CancellationError.self) {
            try await engine.perform(OriginRequest(url: origin.baseURL + "/late"), remaining: .seconds(30))
        }
        #expect(origin.requests.map(\.target) == ["/hang"])
    }
}
