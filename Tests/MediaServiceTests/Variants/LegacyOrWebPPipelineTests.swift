import Foundation
import HTTPCaching
import MediaCore
@testable import MediaService
import MediaTestSupport
import Testing

/// `fmt=auto` from a client that accepts WebP but none of AVIF and JPEG XL, at a width where JPEG has fewer bytes than
/// WebP for photos (docs/variants.md "`fmt=auto`"): JPEG for an opaque still, and WebP, not PNG or GIF, for a source
/// with alpha or an animated one.
@Suite struct LegacyOrWebPPipelineTests {
    static let policy = """
        { "tiers": { "public": { "storage": "memory", "maxTTL": 31536000, "animation": { "maxFrames": 120 },
                     "variants": { "widths": [72, 144, 288], "formats": ["jpeg", "webp", "avif", "png"] } } },
          "routes": [ { "name": "img", "mount": "/img/", "origin": "http://origin.test/img/", "tier": "public" } ] }
        """
    static let webpOnly = [("Accept", "image/webp,*/*")]
    static let legacyOnly = [("Accept", "image/png,image/*;q=0.8")]

    static func harness() throws -> PipelineHarness {
        let harness = try PipelineHarness(policyJSON: policy)
        let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Fixtures")
        for (name, path, type) in [("alpha.png", "made/half-transparent-256x128.png", "image/png"),
                                   ("pan.gif", "made/hubble-pan-6f.gif", "image/gif"),
                                   ("chelsea.png", "corpus/catalog/chelsea.png", "image/png")] {
            let body = try Data(contentsOf: fixtures.appendingPathComponent(path))
            harness.origin.setReply(.init(fields: HTTPFields([("Content-Type", type), ("Cache-Control", "max-age=3600")]),
                                          body: [UInt8](body)), for: "http://origin.test/img/" + name)
        }
        return harness
    }

    @Test func aSourceWithAlphaIsWebPNotPNG() async throws {
        let harness = try Self.harness()
        let webp = await harness.get("/img/alpha.png?w=144&fmt=auto", Self.webpOnly)
        #expect(webp.status == 200)
        #expect(webp.fields["Content-Type"] == "image/webp")
        #expect(webp.fields["Vary"] == "Accept")
        #expect(try ImageValidator().validate(webp.body) == ImageInfo(format: .webp, width: 144, height: 72,
                                                                      byteCount: webp.body.count))
        let png = await harness.get("/img/alpha.png?w=144&fmt=auto", Self.legacyOnly)
        #expect(png.fields["Content-Type"] == "image/png")
        let hit = await harness.get("/img/alpha.png?w=144&fmt=auto", Self.webpOnly)
        #expect(hit.fields["Cache-Status"] == "mediactl; hit; ttl=3600")
        #expect(hit.body == webp.body)
        await harness.close()
    }

    @Test func anOpaqueStillIsJPEGAndAnAnimationIsAnimatedWebP() async throws {
        let harness = try Self.harness()
        let jpeg = await harness.get("/img/chelsea.png?w=144&fmt=auto", Self.webpOnly)
        #expect(jpeg.fields["Content-Type"] == "image/jpeg")
        let animated = await harness.get("/img/pan.gif?w=144&fmt=auto", Self.webpOnly)
        #expect(animated.fields["Content-Type"] == "image/webp")
        #expect(VariantHarness.contains(animated.body, Array("ANMF".utf8)))
        let gif = await harness.get("/img/pan.gif?w=144&fmt=auto", Self.legacyOnly)
        #expect(gif.fields["Content-Type"] == "image/gif")
        await harness.close()
    }
}
