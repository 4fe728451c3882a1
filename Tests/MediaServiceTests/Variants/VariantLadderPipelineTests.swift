import Foundation
import HTTPCaching
import MediaCore
import MediaService
import MediaTestSupport
import Testing

/// The srcset ladder and client hints through the pipeline (docs/variants.md, "Responsive images"): every density of
/// a srcset is served at a declared width, a source is never enlarged and the answer names its size, and on a tier
/// with `clientHints` the hints choose the step and the answer varies on them.
@Suite struct VariantLadderPipelineTests {
    static let policy = """
    { "tiers": {
        "public": { "storage": "disk", "maxTTL": 31536000,
                    "variants": { "widths": [72, 144, 288, 576, 1152], "formats": ["jpeg", "webp"], "maxDpr": 3 } },
        "hinted": { "storage": "memory", "maxTTL": 31536000,
                    "variants": { "widths": [72, 144, 288, 576, 1152], "formats": ["jpeg", "webp"], "maxDpr": 3,
                                  "clientHints": true } } },
      "routes": [
        { "name": "large", "mount": "/large/", "origin": "http://origin.test/large/", "tier": "public" },
        { "name": "hinted", "mount": "/hinted/", "origin": "http://origin.test/large/", "tier": "hinted" } ] }
    """

    static func harness() throws -> PipelineHarness {
        let harness = try PipelineHarness(policyJSON: policy)
        let fields = HTTPFields([("Content-Type", "image/jpeg"), ("Cache-Control", "max-age=3600")])
        harness.origin.setReply(.init(fields: fields, body: try Fixtures.bytes("large/hubble-1000.jpg")),
                                for: "http://origin.test/large/hubble-1000.jpg")
        return harness
    }

    @Test func everyDensityIsServedAndNoneEnlarged() async throws {
        let harness = try Self.harness()
        defer { Task { await harness.close() } }
        for (query, width) in [("w=144&dpr=1", 144), ("w=144&dpr=2", 288), ("w=144&dpr=3", 576), ("w=500&dpr=2", 1000)] {
            let answer = await harness.get("/large/hubble-1000.jpg?" + query)
            #expect(answer.status == 200, "\(query)")
            let info = try ImageValidator().validate(answer.body)
            #expect(info.width == width, "\(query)")
            #expect(answer.fields["Mediactl-Image-Width"] == String(width), "\(query)")
            #expect(answer.fields["Mediactl-Image-Height"] == String(info.height), "\(query)")
            #expect(answer.fields["Vary"] == nil, "\(query)")
        }
        // 432 px asked (144 × 3): the 576 step, one stored variant with ?w=576.
        #expect(await harness.get("/large/hubble-1000.jpg?w=576").fields[.cacheStatus]?.hasPrefix("mediactl; hit") == true)
        // 1000 × 2 is capped at 1152, wider than the 1000-px source: served at 1000, the same object as ?w=1152.
        let hit = await harness.get("/large/hubble-1000.jpg?w=1152")
        #expect(hit.fields[.cacheStatus]?.hasPrefix("mediactl; hit") == true)
        #expect(hit.fields["Mediactl-Image-Width"] == "1000")
        // The synchronous hit path answers with the same fields.
        let fast = try #require(harness.service.handleIfCached(ServiceRequest(target: "/large/hubble-1000.jpg?w=144&dpr=3")))
        #expect(fast.fields["Mediactl-Image-Width"] == "576")
        #expect(harness.origin.callCount(for: "http://origin.test/large/hubble-1000.jpg") == 1)
        // The source itself names no derived size.
        #expect(await harness.get("/large/hubble-1000.jpg").fields["Mediactl-Image-Width"] == nil)
    }

    @Test func clientHintsChooseTheWidthAndTheAnswerVariesOnThem() async throws {
        let harness = try Self.harness()
        defer { Task { await harness.close() } }
        let cases: [(fields: [(String, String)], width: Int, vary: String)] = [
            ([("Sec-CH-DPR", "3")], 576, "Sec-CH-Width, Sec-CH-DPR"),
            ([("Sec-CH-DPR", "2"), ("Sec-CH-Width", "100")], 144, "Sec-CH-Width"),
            ([], 144, "Sec-CH-Width, Sec-CH-DPR"),
            ([("Sec-CH-DPR", "fast")], 144, "Sec-CH-Width, Sec-CH-DPR"),
        ]
        for (fields, width, vary) in cases {
            let answer = await harness.get("/hinted/hubble-1000.jpg?w=144", fields)
            #expect(answer.status == 200, "\(fields)")
            #expect(answer.fields["Mediactl-Image-Width"] == String(width), "\(fields)")
            #expect(answer.fields["Vary"] == vary, "\(fields)")
        }
        // Hints with fmt=auto: both Accept and the hints (WebP has fewer bytes than JPEG from 576 px, FormatRanking).
        let both = await harness.get("/hinted/hubble-1000.jpg?w=144&fmt=auto", [("Accept", "image/webp"), ("Sec-CH-DPR", "3")])
        #expect(both.fields["Content-Type"] == "image/webp")
        #expect(both.fields["Vary"] == "Accept, Sec-CH-Width, Sec-CH-DPR")
        #expect(both.fields["Mediactl-Image-Width"] == "576")
        // dpr in the query: no hint is read, nothing varies.
        let explicit = await harness.get("/hinted/hubble-1000.jpg?w=144&dpr=2", [("Sec-CH-DPR", "3")])
        #expect(explicit.fields["Mediactl-Image-Width"] == "288")
        #expect(explicit.fields["Vary"] == nil)
        // A hinted answer depends on request fields: answered without suspending, it is still chosen by its hints
        // (the prepared hit of the target alone is never used for it).
        let synchronous = try #require(harness.service.handleIfCached(ServiceRequest(target: "/hinted/hubble-1000.jpg?w=144",
                                                                                     fields: ["Sec-CH-DPR": "3"])))
        #expect(synchronous.fields["Mediactl-Image-Width"] == "576")
        #expect(synchronous.fields["Vary"] == "Sec-CH-Width, Sec-CH-DPR")
        #expect(harness.origin.callCount(for: "http://origin.test/large/hubble-1000.jpg") == 1)
    }

    /// An animated source's variant is its first frame, and every answer says so (`Mediactl-Animation`), hits too.
    @Test func anAnimatedSourcesVariantSaysItIsTheFirstFrame() async throws {
        let harness = try Self.harness()
        defer { Task { await harness.close() } }
        harness.origin.setReply(.init(fields: HTTPFields([("Content-Type", "image/gif"), ("Cache-Control", "max-age=3600")]),
                                      body: try Fixtures.bytes("catalog/spinner.gif")),
                                for: "http://origin.test/large/spinner.gif")
        let first = await harness.get("/large/spinner.gif?w=72&fmt=webp")
        #expect(first.status == 200)
        #expect(first.fields["Mediactl-Animation"] == "first-frame; frames=24")
        #expect(first.fields["Mediactl-Image-Width"] == "14")
        let hit = await harness.get("/large/spinner.gif?w=72&fmt=webp")
        #expect(hit.fields[.cacheStatus]?.hasPrefix("mediactl; hit") == true)
        #expect(hit.fields["Mediactl-Animation"] == "first-frame; frames=24")
        let fast = try #require(harness.service.handleIfCached(ServiceRequest(target: "/large/spinner.gif?w=72&fmt=webp")))
        #expect(fast.fields["Mediactl-Animation"] == "first-frame; frames=24")
        // A still source's variant carries none; nor does the animated source itself.
        #expect(await harness.get("/large/hubble-1000.jpg?w=144").fields["Mediactl-Animation"] == nil)
        #expect(await harness.get("/large/spinner.gif").fields["Mediactl-Animation"] == nil)
    }
}
