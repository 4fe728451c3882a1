import HTTPCaching
import MediaCore
import MediaService
import MediaTestSupport
import Testing

@Suite(.timeLimit(.minutes(1))) struct CountingOriginFetcherTests {
    static let url = "http://127.0.0.1:8081/receipts/r-7731.png"

    static func scripted(delay: Duration = .zero) -> CountingOriginFetcher {
        let origin = CountingOriginFetcher()
        origin.setReply(.init(status: 200, fields: ["Cache-Control": "private, max-age=300"], body: Array("MARK-U1".utf8), delay: delay),
                        for: url, authorization: .value("Bearer t1"))
        origin.setReply(.init(status: 403, body: Array("forbidden".utf8), delay: delay), for: url, authorization: .any)
        origin.setReply(.init(status: 401, fields: ["WWW-Authenticate": "Bearer"], delay: delay), for: url, authorization: .none)
        return origin
    }

    @Test func answersPerAuthorizationAndCounts() async throws {
        let origin = Self.scripted()
        let u1 = try await origin.fetch(OriginRequest(url: Self.url, fields: ["Authorization": "Bearer t1"]))
        let u2 = try await origin.fetch(OriginRequest(url: Self.url, fields: ["Authorization": "Bearer t2"]))
        let anon = try await origin.fetch(OriginRequest(url: Self.url))
        #expect(u1 == OriginResponse(status: 200, fields: ["Cache-Control": "private, max-age=300"], body: Array("MARK-U1".utf8)))
        #expect(u2.status == 403)
        #expect(anon == OriginResponse(status: 401, fields: ["WWW-Authenticate": "Bearer"]))
        #expect(origin.callCount(for: Self.url) == 3)
        #expect(origin.totalCallCount == 3)
        #expect(origin.requests.map { $0.fields["Authorization"] } == ["Bearer t1", "Bearer t2", nil])
    }

    @Test func unscriptedURLsAre404AndCounted() async throws {
        let origin = CountingOriginFetcher()
        #expect(try await origin.fetch(OriginRequest(url: "http://o/x")) == OriginResponse(status: 404))
        #expect(origin.callCount(for: "http://o/x") == 1)
        #expect(origin.callCount(for: "http://o/y") == 0)
    }

    @Test func scriptedFailuresAndBodyLimit() async throws {
        let origin = CountingOriginFetcher()
        origin.setReply(.init(error: OriginError(.timeout, "scripted")), for: "http://o/slow")
        origin.setReply(.init(body: [UInt8](repeating: 1, count: 11)), for: "http://o/big")
        await #expect(throws: OriginError(.timeout, "scripted")) { try await origin.fetch(OriginRequest(url: "http://o/slow")) }
        await #expect(throws: OriginError(.tooLarge, "the body exceeds 10 bytes")) {
            try await origin.fetch(OriginRequest(url: "http://o/big", maxBodyBytes: 10))
        }
        #expect(try await origin.fetch(OriginRequest(method: "HEAD", url: "http://o/big", maxBodyBytes: 10)).body == [])
    }

    @Test func laterScriptsReplaceEarlierOnes() async throws {
        let origin = CountingOriginFetcher()
        origin.setReply(.init(status: 200), for: "http://o/a")
        origin.setReply(.init(status: 304), for: "http://o/a")
        #expect(try await origin.fetch(OriginRequest(url: "http://o/a")).status == 304)
    }

    @Test func delayIsCancellable() async throws {
        let origin = CountingOriginFetcher()
        origin.setReply(.init(status: 200, delay: .seconds(60)), for: "http://o/a")
        let task = Task { try await origin.fetch(OriginRequest(url: "http://o/a")) }
        #expect(await eventually { origin.totalCallCount == 1 })
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
    }

    /// C03 with the real pieces: single-flight keyed by (URL, partition), a delayed origin
    /// answering per token. Three callers, three origin requests, each gets its own answer.
    @Test func caseC03CoalescingNeverJoinsPartitions() async throws {
        let origin = Self.scripted(delay: .milliseconds(50))
        let flight = SingleFlight<String, OriginResponse>()
        let users: [String?] = ["Bearer t1", "Bearer t2", nil]
        let answers = try await withThrowingTaskGroup(of: (String?, OriginResponse).self) { group in
            for authorization in users {
                group.addTask {
                    var fields = HTTPFields()
                    if let authorization { fields.append("Authorization", authorization) }
                    let key = Self.url + "|" + (authorization ?? "-")
                    let outcome = try await flight.run(key, isShareable: { _ in false }) {
                        try await origin.fetch(OriginRequest(url: Self.url, fields: fields))
                    }
                    return (authorization, outcome.value)
                }
            }
            return try await group.reduce(into: [String: HTTPStatus]()) { $0[$1.0 ?? "ANON"] = $1.1.status }
        }
        #expect(answers == ["Bearer t1": 200, "Bearer t2": 403, "ANON": 401])
        #expect(origin.callCount(for: Self.url) == 3)
    }
}
