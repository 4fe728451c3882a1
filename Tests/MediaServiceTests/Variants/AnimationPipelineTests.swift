import Foundation
import HTTPCaching
import MediaAudit
import MediaCore
import MediaService
import MediaTestSupport
import Testing

/// Animated variants through the pipeline (docs/variants.md "Animation"): on a tier with `animation`, an animated
/// GIF keeps its frames (animated WebP for a client that accepts WebP, GIF for one that accepts none of WebP, AVIF,
/// JPEG XL), validated and stored like any variant; without the key it is the first frame, and says so.
@Suite struct AnimationPipelineTests {
    static func policy(animation: String?) -> String {
        let key = animation.map { #""animation": \#($0), "# } ?? ""
        return """
        { "tiers": { "public": { "storage": "disk", "maxTTL": 31536000, \(key)
                     "variants": { "widths": [72, 144, 288], "formats": ["jpeg", "webp", "avif", "png"] } } },
          "routes": [ { "name": "gifs", "mount": "/gifs/", "origin": "http://origin.test/gifs/", "tier": "public" } ] }
        """
    }

    static func harness(animation: String?) throws -> PipelineHarness {
        let harness = try PipelineHarness(policyJSON: policy(animation: animation))
        let pan = try Data(contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Fixtures/made/hubble-pan-6f.gif"))
        harness.origin.setReply(.init(fields: HTTPFields([("Content-Type", "image/gif"), ("Cache-Control", "max-age=3600")]),
                                      body: [UInt8](pan)), for: "http://origin.test/gifs/pan.gif")
        return harness
    }

    static let chromium = [("Accept", "image/avif,image/webp,image/apng,image/*,*/*;q=0.8")]
    static let legacy = [("Accept", "image/png,image/*;q=0.8")]

    @Test func anAnimationIsKeptAsWebPOrGIFAndStored() async throws {
        let harness = try Self.harness(animation: #"{ "maxFrames": 120, "maxPixels": 50000000 }"#)
        let webp = await harness.get("/gifs/pan.gif?w=144&fmt=auto", Self.chromium)
        #expect(webp.status == 200)
        #expect(webp.fields["Content-Type"] == "image/webp")
        #expect(webp.fields["Mediactl-Image-Width"] == "144" && webp.fields["Mediactl-Image-Height"] == "108")
        #expect(webp.fields["Mediactl-Animation"] == nil)
        #expect(try ImageValidator().validate(webp.body).height == 108)
        #expect(VariantHarness.contains(webp.body, Array("ANMF".utf8)))
        let gif = await harness.get("/gifs/pan.gif?w=144&fmt=auto", Self.legacy)
        #expect(gif.fields["Content-Type"] == "image/gif")
        #expect(gif.fields["Vary"] == "Accept")
        let own = await harness.get("/gifs/pan.gif?w=144")
        #expect(own.fields["Content-Type"] == "image/gif")
        // The source came from storage: nothing was forwarded.
        #expect(own.fields["Cache-Status"] == "mediactl; ttl=3600; stored; detail=disk")
        let still = await harness.get("/gifs/pan.gif?w=144&fmt=jpeg")
        #expect(still.fields["Content-Type"] == "image/jpeg")
        #expect(still.fields["Mediactl-Animation"] == "first-frame; frames=6")
        let hit = await harness.get("/gifs/pan.gif?w=144&fmt=auto", Self.chromium)
        #expect(hit.fields["Cache-Status"] == "mediactl; hit; ttl=3600")
        #expect(hit.body == webp.body)
        let transforms = try harness.auditRecords().filter { $0.event == .store }.compactMap { $0.transform?.rawValue }
        #expect(transforms == ["w=144,fit=inside,fmt=webp,q=80,animated", "w=144,fit=inside,fmt=gif,animated",
                               "w=144,fit=inside,fmt=gif,animated", "w=144,fit=inside,fmt=jpeg,q=80"])
        await harness.close()
    }

    @Test func withoutTheKeyOrOverTheBudgetTheFirstFrameIsServed() async throws {
        for animation in [nil, #"{ "maxFrames": 5 }"#, #"{ "maxPixels": 179999 }"#] {
            let harness = try Self.harness(animation: animation)
            let answer = await harness.get("/gifs/pan.gif?w=144&fmt=auto", Self.chromium)
            #expect(answer.fields["Content-Type"] == "image/avif", "\(animation ?? "none")")
            #expect(answer.fields["Mediactl-Animation"] == "first-frame; frames=6", "\(animation ?? "none")")
            await harness.close()
        }
    }
}
