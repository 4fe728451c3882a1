import Foundation
import HTTPCaching
import MediaCore
import MediaService
import MediaTestSupport
import Testing

/// A bare 304 (no validators) to the cache's own conditional request for one stored response updates it:
/// the origin sees the validation once, never a second, unconditional request (RFC 9111 §4.3.3–4.3.4).
@Suite struct BareNotModifiedServiceTests {
    static let url = "http://origin.test/catalog/bare.jpg"

    @Test func aBare304UpdatesTheOneStoredResponse() async throws {
        let harness = try PipelineHarness()
        let body = try Fixtures.bytes("catalog/horse-d29d871c.jpg")
        harness.origin.setReply(.init(fields: HTTPFields([("Cache-Control", "max-age=2, must-revalidate"), ("ETag", "\"b1\"")]),
                                      body: body), for: Self.url)
        let first = await harness.get("/catalog/bare.jpg")
        #expect(first.status == 200)
        harness.clock.advance(3)
        harness.origin.setReply(.init(status: 304), for: Self.url)
        let second = await harness.get("/catalog/bare.jpg")
        #expect(second.status == 200)
        #expect(second.body == body)
        #expect(second.fields["Cache-Status"] == "mediactl; fwd=stale; fwd-status=304; ttl=2")
        #expect(harness.origin.callCount(for: Self.url) == 2)
        #expect(harness.origin.requests.last?.fields["If-None-Match"] == "\"b1\"")
        // Fresh again after the update.
        let third = await harness.get("/catalog/bare.jpg")
        #expect(third.fields["Cache-Status"]?.hasPrefix("mediactl; hit") == true)
        #expect(harness.origin.callCount(for: Self.url) == 2)
        #expect(PipelineSupport.events(try harness.auditRecords()) == ["store:tier-storage", "update:not-modified"])
        await harness.close()
    }
}
