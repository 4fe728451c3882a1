import Foundation
import HTTPCaching
import MediaCore
import MediaPolicy
import MediaService
import MediaTestSupport
import Testing

/// Conformance mode (issue 7): one route mounts `/` with a generic tier, so the service is a plain
/// RFC 9111 reverse-proxy cache.
@Suite struct ConformanceModeTests {
    static let policy = """
    { "tiers": { "http": { "storage": "memory", "cache": "shared", "credentials": "forward", "contentTypes": ["*/*"] } },
      "routes": [ { "name": "all", "mount": "/", "origin": "http://origin.test/", "tier": "http", "methods": "all" } ] }
    """

    private func harness() throws -> PipelineHarness { try PipelineHarness(policyJSON: Self.policy) }

    @Test func anyContentIsCachedAndOriginFieldsPassThrough() async throws {
        let harness = try harness()
        defer { Task { await harness.close() } }
        let date = HTTPDate.format(Int64(harness.clock.now))
        harness.origin.setReply(.init(status: 200, fields: ["Content-Type": "text/plain", "Cache-Control": "max-age=60",
                                                            "Date": date, "Age": "10", "X-Origin": "kept"],
                                      body: Array("hello".utf8)), for: "http://origin.test/text")
        let first = await harness.get("/text")
        #expect(first.status == 200)
        #expect(first.body == Array("hello".utf8))
        #expect(first.fields["Content-Type"] == "text/plain")
        #expect(first.fields["Cache-Control"] == "max-age=60")
        #expect(first.fields["Date"] == date)
        #expect(first.fields["Age"] == "10")
        #expect(first.fields["X-Origin"] == "kept")
        harness.clock.advance(5)
        let second = await harness.get("/text")
        #expect(second.fields["Age"] == "15")
        #expect(second.fields["Cache-Status"] == "mediactl; hit; ttl=45")
        #expect(harness.origin.totalCallCount == 1)
    }

    @Test func upstreamAgeMakesTheResponseStaleSooner() async throws {
        // C10: max-age=60 with Age: 59 leaves ≈1 s of freshness.
        let harness = try harness()
        defer { Task { await harness.close() } }
        harness.origin.setReply(.init(status: 200, fields: ["Cache-Control": "max-age=60", "Age": "59",
                                                            "Date": HTTPDate.format(Int64(harness.clock.now))],
                                      body: Array("x".utf8)), for: "http://origin.test/aged")
        _ = await harness.get("/aged")
        harness.clock.advance(5)
        let again = await harness.get("/aged")
        #expect(again.fields["Cache-Status"]?.hasPrefix("mediactl; fwd=stale") == true)
        #expect(harness.origin.totalCallCount == 2)
    }

    @Test func requestFieldsAreForwardedExceptHopByHop() async throws {
        let harness = try harness()
        defer { Task { await harness.close() } }
        harness.origin.setReply(.init(status: 200, fields: ["Cache-Control": "no-store"], body: []), for: "http://origin.test/f")
        _ = await harness.get("/f", [("X-Custom", "1"), ("Cookie", "a=b"), ("Connection", "X-Hop"), ("X-Hop", "gone"),
                                     ("Keep-Alive", "timeout=5"), ("Accept", "text/*")])
        let sent = try #require(harness.origin.requests.first)
        #expect(sent.fields["X-Custom"] == "1")
        #expect(sent.fields["Cookie"] == "a=b")
        #expect(sent.fields["Accept"] == "text/*")
        #expect(sent.fields["X-Hop"] == nil)
        #expect(sent.fields["Keep-Alive"] == nil)
        #expect(sent.fields["Connection"] == nil)
        #expect(sent.allowsRetry == false)
    }

    @Test func authorizationInTheSharedTierFollowsSection3Point5() async throws {
        let harness = try harness()
        defer { Task { await harness.close() } }
        harness.origin.setReply(.init(status: 200, fields: ["Cache-Control": "max-age=60"], body: Array("u1".utf8)),
                                for: "http://origin.test/private")
        harness.origin.setReply(.init(status: 200, fields: ["Cache-Control": "public, max-age=60"], body: Array("pub".utf8)),
                                for: "http://origin.test/public")
        let first = await harness.get("/private", [("Authorization", "Basic dTE6cA==")])
        #expect(first.outcome.storage == .notStored)
        #expect(first.outcome.reason == "authorization-in-shared-cache")
        #expect(harness.origin.requests.first?.fields["Authorization"] == "Basic dTE6cA==")
        let anonymous = await harness.get("/private")
        #expect(anonymous.fields["Cache-Status"]?.contains("fwd=uri-miss") == true)
        _ = await harness.get("/public", [("Authorization", "Basic dTE6cA==")])
        let reuse = await harness.get("/public")
        #expect(reuse.fields["Cache-Status"]?.hasPrefix("mediactl; hit") == true)
    }

    @Test func unsafeMethodsPassThroughWithTheirBodyAndInvalidate() async throws {
        let harness = try harness()
        defer { Task { await harness.close() } }
        harness.origin.setReply(.init(status: 200, fields: ["Cache-Control": "max-age=600"], body: Array("v1".utf8)),
                                for: "http://origin.test/doc")
        _ = await harness.get("/doc")
        #expect(await harness.get("/doc").fields["Cache-Status"]?.hasPrefix("mediactl; hit") == true)
        harness.origin.setReply(.init(status: 204, fields: ["Location": "/other"]), for: "http://origin.test/doc")
        let post = await harness.service.handle(ServiceRequest(method: "POST", target: "/doc", fields: ["Content-Type": "text/plain"],
                                                               body: Array("payload".utf8)))
        #expect(post.status == 204)
        #expect(post.fields["Cache-Status"] == "mediactl; fwd=method; fwd-status=204; detail=invalidated")
        let forwarded = try #require(harness.origin.requests.last)
        #expect(forwarded.method == "POST")
        #expect(forwarded.body == Array("payload".utf8))
        harness.origin.setReply(.init(status: 200, fields: ["Cache-Control": "max-age=600"], body: Array("v2".utf8)),
                                for: "http://origin.test/doc")
        let after = await harness.get("/doc")
        #expect(after.body == Array("v2".utf8))
        let events = try harness.auditRecords().map { "\($0.entry.event.rawValue):\($0.entry.reason?.rawValue ?? "-")" }
        #expect(events.contains("invalidate:unsafe-method"))
    }

    @Test func unknownMethodsPassThroughToo() async throws {
        let harness = try harness()
        defer { Task { await harness.close() } }
        harness.origin.setReply(.init(status: 200, fields: [:], body: Array("ok".utf8)), for: "http://origin.test/x")
        let answer = await harness.service.handle(ServiceRequest(method: "FROB", target: "/x"))
        #expect(answer.status == 200)
        #expect(harness.origin.requests.first?.method == "FROB")
    }

    @Test func clientConditionalsReachTheOriginWhenNothingIsStored() async throws {
        let harness = try harness()
        defer { Task { await harness.close() } }
        harness.origin.setReply(.init(status: 304, fields: ["ETag": "\"e1\""]), for: "http://origin.test/c")
        let answer = await harness.get("/c", [("If-None-Match", "\"e1\"")])
        #expect(answer.status == 304)
        #expect(answer.fields["Content-Length"] == nil)
        #expect(harness.origin.requests.first?.fields["If-None-Match"] == "\"e1\"")
    }
}

@Suite struct ConformanceExamplePolicyTests {
    @Test func theDocumentedExampleLoads() throws {
        let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("docs/examples/conformance")
        let policies = try PolicyLoader().load(directory: directory.path)
        #expect(policies.routes.map(\.mount) == ["/"])
        #expect(policies.tier(named: "http")?.validatesImages == false)
    }
}
