import HTTPCaching
import MediaCore
@testable import MediaService
import MediaTestSupport
import Testing

/// A client's `Expect: 100-continue` is met by the service itself (it reads the whole body before
/// forwarding), so it never reaches the origin: forwarded, libcurl would wait up to 1 s for a
/// `100 Continue` before sending a pass-through body, and a GET would carry an expectation
/// without a body.
@Suite struct ExpectFieldTests {
    @Test func imageTiersDropExpect() async throws {
        let harness = try PipelineHarness()
        defer { Task { await harness.close() } }
        harness.origin.setReply(.init(fields: ["Cache-Control": "max-age=600"], body: try Fixtures.bytes("catalog/coins-1fea11f1.jpg")),
                                for: "http://origin.test/catalog/coins.jpg")
        _ = await harness.get("/catalog/coins.jpg", [("Expect", "100-continue")])
        #expect(harness.origin.requests.map { $0.fields["Expect"] } == [nil])
    }

    @Test func passThroughRoutesDropExpect() async throws {
        let harness = try PipelineHarness(policyJSON: """
        { "tiers": { "http": { "storage": "memory", "cache": "shared", "credentials": "forward", "contentTypes": ["*/*"] } },
          "routes": [ { "name": "all", "mount": "/", "origin": "http://origin.test/", "tier": "http", "methods": "all" } ] }
        """)
        defer { Task { await harness.close() } }
        harness.origin.setReply(.init(fields: ["Cache-Control": "max-age=60"], body: [1]), for: "http://origin.test/text")
        _ = await harness.get("/text", [("Expect", "100-continue"), ("X-Kept", "1")])
        _ = await harness.service.handle(ServiceRequest(method: "POST", target: "/text",
                                                        fields: HTTPFields([("Expect", "100-continue"), ("X-Kept", "1")]), body: [1, 2]))
        #expect(harness.origin.requests.map { $0.fields["Expect"] } == [nil, nil])
        #expect(harness.origin.requests.map { $0.fields["X-Kept"] } == ["1", "1"])
    }
}
