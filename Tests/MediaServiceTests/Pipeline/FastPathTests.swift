import HTTPCaching
import MediaService
import MediaTestSupport
import Testing

/// ``MediaService/handleIfCached(_:)``: answers what needs no origin exactly like ``MediaService/handle(_:)``,
/// and `nil` for everything else.
@Suite struct FastPathTests {
    @Test func freshHitIsAnsweredLikeHandle() async throws {
        let harness = try PipelineHarness()
        defer { Task { await harness.close() } }
        let jpeg = try Fixtures.bytes("catalog/horse-d29d871c.jpg")
        harness.origin.setReply(.init(fields: ["Cache-Control": "max-age=60", "ETag": "\"h\""], body: jpeg),
                                for: "http://origin.test/catalog/h.jpg")
        #expect(harness.service.handleIfCached(ServiceRequest(target: "/catalog/h.jpg")) == nil)
        _ = await harness.get("/catalog/h.jpg")
        harness.clock.advance(7)
        let fast = try #require(harness.service.handleIfCached(ServiceRequest(target: "/catalog/h.jpg")))
        let slow = await harness.get("/catalog/h.jpg")
        #expect(fast.status == 200)
        #expect(fast.body == jpeg)
        #expect(fast.fields == slow.fields)
        #expect(fast.outcome == slow.outcome)
        #expect(fast.fields["Cache-Status"] == "mediactl; hit; ttl=53")
        let conditional = try #require(harness.service.handleIfCached(
            ServiceRequest(target: "/catalog/h.jpg", fields: ["If-None-Match": "\"h\""])))
        #expect(conditional.status == 304)
        harness.clock.advance(60)
        #expect(harness.service.handleIfCached(ServiceRequest(target: "/catalog/h.jpg")) == nil)
        #expect(harness.origin.totalCallCount == 1)
    }

    @Test func refusalsAndEndpointsAreAnsweredWithoutSuspending() async throws {
        let harness = try PipelineHarness()
        defer { Task { await harness.close() } }
        let refusal = try #require(harness.service.handleIfCached(ServiceRequest(target: "/catalog/../x")))
        #expect(refusal.status == 400)
        #expect(PipelineSupport.problemCode(refusal) == "dot-segment")
        let unauthorized = try #require(harness.service.handleIfCached(ServiceRequest(target: "/receipts/x")))
        #expect(unauthorized.status == 401)
        let health = harness.service.endpoint(ServiceRequest(target: "/_mediactl/health"))
        #expect(health.status == 200)
        #expect(harness.service.handleIfCached(ServiceRequest(target: "/catalog/x",
                                                              cachePolicy: .returnCacheDataDontLoad)) == nil)
        #expect(harness.origin.totalCallCount == 0)
    }

    @Test func partitionedHitOnlyForItsOwnCredential() async throws {
        let harness = try PipelineHarness()
        defer { Task { await harness.close() } }
        harness.origin.setReply(.init(fields: ["Cache-Control": "max-age=60"], body: PipelineSupport.markedPNG("MARK-U1")),
                                for: "http://origin.test/receipts/r.png")
        _ = await harness.get("/receipts/r.png", [("Authorization", "Bearer t1")])
        let own = harness.service.handleIfCached(ServiceRequest(target: "/receipts/r.png", fields: ["Authorization": "Bearer t1"]))
        #expect(own?.body == PipelineSupport.markedPNG("MARK-U1"))
        #expect(own?.fields["Cache-Control"] == "private, no-store")
        #expect(harness.service.handleIfCached(ServiceRequest(target: "/receipts/r.png", fields: ["Authorization": "Bearer t2"])) == nil)
    }
}
