import Foundation
import HTTPCaching
import MediaCore
import MediaService
import MediaTestSupport
import Testing

/// Per-format quality through the pipeline: `fmt=auto` stores and audits each format at its own quality.
@Suite struct PerFormatQualityPipelineTests {
    @Test func eachNegotiatedFormatIsEncodedAtItsQuality() async throws {
        let policy = """
        { "tiers": { "public": { "storage": "disk", "maxTTL": 31536000,
            "variants": { "widths": [144, 576], "formats": ["jpeg", "webp", "avif"],
                          "quality": { "jpeg": 80, "webp": 79, "avif": 63 }, "avifEffort": 8 } } },
          "routes": [ { "name": "large", "mount": "/large/", "origin": "http://origin.test/large/", "tier": "public" } ] }
        """
        let harness = try PipelineHarness(policyJSON: policy)
        defer { Task { await harness.close() } }
        harness.origin.setReply(.init(fields: HTTPFields([("Content-Type", "image/jpeg"), ("Cache-Control", "max-age=3600")]),
                                      body: try Fixtures.bytes("large/hubble-1000.jpg")),
                                for: "http://origin.test/large/hubble-1000.jpg")
        // WebP is negotiated where it has fewer bytes than JPEG (576 px, FormatRanking).
        for (width, accept, variant) in [(144, "image/avif", "w=144,fit=inside,fmt=avif,q=63"),
                                         (576, "image/webp", "w=576,fit=inside,fmt=webp,q=79"),
                                         (144, "*/*", "w=144,fit=inside,fmt=jpeg,q=80")] {
            let answer = await harness.get("/large/hubble-1000.jpg?w=\(width)&fmt=auto", [("Accept", accept)])
            #expect(answer.status == 200, "\(accept)")
            #expect(answer.outcome.variant == variant, "\(accept)")
        }
        let transforms = try harness.auditRecords().map(\.entry).filter { $0.event == .store }.compactMap { $0.transform?.rawValue }
        #expect(transforms == ["w=144,fit=inside,fmt=avif,q=63", "w=576,fit=inside,fmt=webp,q=79", "w=144,fit=inside,fmt=jpeg,q=80"])
    }
}
