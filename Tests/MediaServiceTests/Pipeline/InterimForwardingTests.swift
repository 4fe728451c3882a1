import HTTPCaching
import MediaCore
@testable import MediaService
import MediaTestSupport
import Synchronization
import Testing

/// Interim (1xx) responses of the origin exchange a request makes, forwarded to its client in conformance
/// mode (RFC 9110 §15.2), never stored, never part of the final response; none on image tiers, hits,
/// coalesced waiters or background refreshes.
@Suite struct InterimForwardingTests {
    /// Collects what the service forwards for one request.
    final class Recorder: Sendable {
        let received = Mutex<[OriginInterimResponse]>([])
        var handler: OriginInterimResponse.Handler { { [self] response in received.withLock { $0.append(response) } } }
        var statuses: [HTTPStatus] { received.withLock { $0.map(\.status) } }
    }

    static let policy = """
    { "tiers": { "http": { "storage": "memory", "cache": "shared", "credentials": "forward", "contentTypes": ["*/*"],
                           "forwardInterim": true } },
      "routes": [ { "name": "all", "mount": "/", "origin": "http://origin.test/", "tier": "http", "methods": "all" } ] }
    """

    @Test func withoutForwardInterimNoneIsForwarded() async throws {
        let harness = try PipelineHarness(policyJSON: Self.policy.replacingOccurrences(of: "\"forwardInterim\": true", with: "\"forwardInterim\": false"))
        defer { Task { await harness.close() } }
        harness.origin.setReply(.init(fields: ["Cache-Control": "max-age=60"], body: Array("final".utf8), interim: [Self.earlyHints]),
                                for: "http://origin.test/page")
        let recorder = Recorder()
        let answer = await harness.service.handle(
            ServiceRequest(method: "GET", target: "/page", interimResponses: recorder.handler))
        #expect(answer.status == 200)
        #expect(recorder.statuses == [])
    }

    static let earlyHints = OriginInterimResponse(
        status: 103, fields: HTTPFields([("Link", "</styles.css>; rel=preload; as=style"), ("x-my-header", "test")]))

    static func request(_ target: String, method: String = "GET", _ recorder: Recorder,
                        fields: [(String, String)] = []) -> ServiceRequest {
        ServiceRequest(method: HTTPMethod(method), target: target, fields: HTTPFields(fields), interimResponses: recorder.handler)
    }

    @Test func aMissForwardsTheOriginsInterimResponsesAndStoresNoneOfTheirFields() async throws {
        let harness = try PipelineHarness(policyJSON: Self.policy)
        defer { Task { await harness.close() } }
        let date = HTTPDate.format(Int64(harness.clock.now))
        harness.origin.setReply(.init(status: 200, fields: ["Cache-Control": "max-age=3600", "Date": date], body: Array("final".utf8),
                                      interim: [Self.earlyHints, OriginInterimResponse(status: 100), OriginInterimResponse(status: 102)]),
                                for: "http://origin.test/hinted")
        let recorder = Recorder()
        let first = await harness.service.handle(Self.request("/hinted", recorder))
        // 100 Continue is the service's own business (it read the body and sent no Expect); 102 and 103 pass.
        #expect(recorder.received.withLock { $0 } == [Self.earlyHints, OriginInterimResponse(status: 102)])
        #expect(first.status == 200)
        #expect(first.body == Array("final".utf8))
        #expect(first.fields["Link"] == nil)
        #expect(first.fields["x-my-header"] == nil)
        #expect(first.fields["Cache-Status"] == "mediactl; fwd=uri-miss; fwd-status=200; ttl=3600; stored; detail=memory")

        let again = Recorder()
        let second = await harness.service.handle(Self.request("/hinted", again))
        #expect(again.statuses == [])
        #expect(second.status == 200)
        #expect(second.fields["Cache-Status"] == "mediactl; hit; ttl=3600")
        #expect(second.fields["Link"] == nil)
        #expect(second.fields["x-my-header"] == nil)
        #expect(harness.origin.totalCallCount == 1)
    }

    /// The final response is the one the same origin answer gives without interim responses.
    @Test func theFinalResponseIsTheSameWithoutInterimResponses() async throws {
        var finals: [[String]] = []
        for interim in [[Self.earlyHints], []] {
            let harness = try PipelineHarness(policyJSON: Self.policy)
            harness.origin.setReply(.init(status: 200, fields: ["Cache-Control": "max-age=60", "X-Origin": "kept"],
                                          body: Array("same".utf8), interim: interim), for: "http://origin.test/same")
            let response = await harness.service.handle(Self.request("/same", Recorder()))
            finals.append([String(response.status), response.text] + response.fields.map { "\($0.name): \($0.value)" })
            await harness.close()
        }
        #expect(finals[0] == finals[1])
        #expect(finals[0].contains("Cache-Status: mediactl; fwd=uri-miss; fwd-status=200; ttl=60; stored; detail=memory"))
    }

    @Test func aValidationAndAPassThroughMethodForwardTheirInterimResponses() async throws {
        let harness = try PipelineHarness(policyJSON: Self.policy)
        defer { Task { await harness.close() } }
        harness.origin.setReply(.init(status: 200, fields: ["Cache-Control": "max-age=10", "ETag": "\"v1\""], body: Array("v1".utf8)),
                                for: "http://origin.test/page")
        _ = await harness.service.handle(Self.request("/page", Recorder()))
        harness.clock.advance(20)
        harness.origin.setReply(.init(status: 304, fields: ["Cache-Control": "max-age=10", "ETag": "\"v1\""], interim: [Self.earlyHints]),
                                for: "http://origin.test/page")
        let validating = Recorder()
        let validated = await harness.service.handle(Self.request("/page", validating))
        #expect(validating.received.withLock { $0 } == [Self.earlyHints])
        #expect(validated.fields["Cache-Status"] == "mediactl; fwd=stale; fwd-status=304; ttl=10")
        #expect(validated.fields["Link"] == nil)

        harness.origin.setReply(.init(status: 201, fields: ["Location": "/page/2"], body: Array("made".utf8),
                                      interim: [OriginInterimResponse(status: 102)]), for: "http://origin.test/page")
        let posting = Recorder()
        let posted = await harness.service.handle(Self.request("/page", method: "POST", posting))
        #expect(posting.statuses == [102])
        #expect(posted.status == 201)
        #expect(posted.text == "made")
    }

    @Test func imageTiersForwardNoInterimResponse() async throws {
        let harness = try PipelineHarness()
        defer { Task { await harness.close() } }
        let jpeg = try Fixtures.bytes("catalog/horse-d29d871c.jpg")
        harness.origin.setReply(.init(status: 200, fields: ["Cache-Control": "max-age=60"], body: jpeg, interim: [Self.earlyHints]),
                                for: "http://origin.test/catalog/horse.jpg")
        let recorder = Recorder()
        let response = await harness.service.handle(Self.request("/catalog/horse.jpg", recorder))
        #expect(response.status == 200)
        #expect(response.body == jpeg)
        #expect(recorder.statuses == [])
        #expect(response.fields["Link"] == nil)
    }

    @Test func aBackgroundRefreshForwardsNothing() async throws {
        let harness = try PipelineHarness(policyJSON: Self.policy)
        defer { Task { await harness.close() } }
        harness.origin.setReply(.init(status: 200, fields: ["Cache-Control": "max-age=10, stale-while-revalidate=60"],
                                      body: Array("v1".utf8)), for: "http://origin.test/swr")
        _ = await harness.service.handle(Self.request("/swr", Recorder()))
        harness.clock.advance(20)
        harness.origin.setReply(.init(status: 200, fields: ["Cache-Control": "max-age=10, stale-while-revalidate=60"],
                                      body: Array("v2".utf8), interim: [Self.earlyHints]), for: "http://origin.test/swr")
        let recorder = Recorder()
        let stale = await harness.service.handle(Self.request("/swr", recorder))
        await harness.service.waitForBackgroundRefreshes()
        #expect(stale.text == "v1")
        #expect(stale.fields["Cache-Status"] == "mediactl; hit; ttl=-10; detail=stale-while-revalidate")
        #expect(harness.origin.totalCallCount == 2)
        #expect(recorder.statuses == [])
    }

    /// Only the request that went to the origin gets its interim responses; a coalesced waiter gets the final answer only.
    @Test func aCoalescedWaiterGetsNoInterimResponse() async throws {
        let origin = InterimGatedOrigin(interim: [Self.earlyHints]) {
            OriginResponse(status: 200, fields: ["Cache-Control": "max-age=60"], body: Array("shared".utf8))
        }
        let harness = try PipelineHarness(policyJSON: Self.policy, fetcher: origin)
        defer { Task { await harness.close() } }
        let recorders = [Recorder(), Recorder()]
        async let responses = PipelineSupport.concurrently(2) { index in
            await harness.service.handle(Self.request("/together", recorders[index]))
        }
        #expect(await eventually { CoalescingTests.flightState(harness) == (1, 1) })
        await origin.gate.open()
        let all = await responses
        #expect(origin.callCount == 1)
        #expect(all.map(\.text) == ["shared", "shared"])
        #expect(recorders.map(\.statuses).sorted { $0.count < $1.count } == [[], [103]])
        #expect(all.filter { $0.outcome.storage == .collapsed }.count == 1)
        let leader = recorders[0].statuses.isEmpty ? 1 : 0
        #expect(all[leader].outcome.storage == .stored(.memory))
    }
}

/// Reports its interim responses at once, then answers once ``gate`` opens.
final class InterimGatedOrigin: OriginFetching {
    let gate = Gate()
    let interim: [OriginInterimResponse]
    let answer: @Sendable () -> OriginResponse
    private let calls = Mutex(0)

    init(interim: [OriginInterimResponse], _ answer: @escaping @Sendable () -> OriginResponse) {
        self.interim = interim
        self.answer = answer
    }

    var callCount: Int { calls.withLock { $0 } }

    func fetch(_ request: OriginRequest) async throws -> OriginResponse {
        try await fetch(request, interim: nil)
    }

    func fetch(_ request: OriginRequest, interim handler: OriginInterimResponse.Handler?) async throws -> OriginResponse {
        calls.withLock { $0 += 1 }
        if let handler { for response in interim { handler(response) } }
        await gate.wait()
        return answer()
    }
}
