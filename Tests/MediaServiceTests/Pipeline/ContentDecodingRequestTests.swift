import HTTPCaching
@testable import MediaService
import MediaTestSupport
import Testing

/// Image tiers ask the transport to decode any content coding the origin applies anyway
/// (``OriginRequest/decodesContentCoding``); conformance-mode (pass-through) routes never do.
@Suite struct ContentDecodingRequestTests {
    @Test func imageTiersAskForDecodedBytes() async throws {
        let harness = try PipelineHarness()
        defer { Task { await harness.close() } }
        harness.origin.setReply(.init(fields: ["Cache-Control": "max-age=600"], body: try Fixtures.bytes("catalog/coins-1fea11f1.jpg")),
                                for: "http://origin.test/catalog/coins.jpg")
        let response = await harness.get("/catalog/coins.jpg", [("Accept-Encoding", "gzip")])
        #expect(response.status == 200)
        #expect(harness.origin.requests.map(\.decodesContentCoding) == [true])
        #expect(harness.origin.requests.map { $0.fields.values(for: "Accept-Encoding") } == [["identity"]])
    }

    @Test func passThroughRoutesGetTheBytesAsSent() async throws {
        let harness = try PipelineHarness(policyJSON: """
        { "tiers": { "http": { "storage": "memory", "cache": "shared", "credentials": "forward", "contentTypes": ["*/*"] } },
          "routes": [ { "name": "all", "mount": "/", "origin": "http://origin.test/", "tier": "http", "methods": "all" } ] }
        """)
        defer { Task { await harness.close() } }
        harness.origin.setReply(.init(fields: ["Cache-Control": "max-age=60", "Content-Encoding": "gzip"], body: [1, 2, 3]),
                                for: "http://origin.test/text")
        let response = await harness.get("/text", [("Accept-Encoding", "gzip")])
        #expect(response.body == [1, 2, 3])
        #expect(response.fields["Content-Encoding"] == "gzip")
        #expect(harness.origin.requests.map(\.decodesContentCoding) == [false])
    }
}
