import Testing
@testable import MediaTransform

extension LibvipsTests {
    /// AVIF output, where this libvips writes it.
    @Suite struct AVIFTests {
        @Test func avifSaveIsAvailableHere() {
            // Debian 12's libheif 1.15 with libaom: the platform notes say AVIF save works.
            #expect(VipsRuntime.canSaveAVIF)
        }

        @Test func hubbleTo576PixelAVIF() throws {
            guard VipsRuntime.canSaveAVIF else { return }
            let out = try ImageTransformer.derive(
                try Fixtures.bytes("large/hubble-1000.jpg"), spec: VariantSpec(width: 576, quality: 60, format: .format(.avif)),
                declared: [.avif, .jpeg], limits: TransformLimits(), deadline: nil)
            #expect(out.format == .avif)
            #expect((out.width, out.height) == (576, 502))
            #expect(Array(out.bytes[4..<12]) == Array("ftypavif".utf8))
            let decoded = try #require(Decoded(out.bytes))
            #expect(decoded.probe == ImageProbe(format: .avif, width: 576, height: 502, pages: 1, hasAlpha: false))
            #expect(decoded.image.string("heif-compression") == "av1")
            #expect(out.bytes.count < 40_000)
        }

        /// An AVIF source decodes; without `fmt` it is re-encoded as WebP or the legacy format, never AVIF
        /// (AVIF is only encoded when asked for, under `maxAVIFWidth` and the AVIF pool).
        @Test func avifSourceRoundTrips() throws {
            guard VipsRuntime.canSaveAVIF else { return }
            let avif = try ImageTransformer.derive(
                try Fixtures.bytes("catalog/chelsea.png"), spec: VariantSpec(width: 128, quality: 60, format: .format(.avif)),
                declared: [.avif], limits: TransformLimits(), deadline: nil)
            let again = try ImageTransformer.derive(
                avif.bytes, spec: VariantSpec(width: 64, quality: 60, format: .source),
                declared: [.avif, .jpeg], limits: TransformLimits(), deadline: nil)
            #expect(again.format == .jpeg)
            #expect((again.width, again.height) == (64, 64))
            let asked = try ImageTransformer.derive(
                avif.bytes, spec: VariantSpec(width: 64, quality: 60, format: .format(.avif)),
                declared: [.avif, .jpeg], limits: TransformLimits(), deadline: nil)
            #expect(asked.format == .avif)
        }
    }
}
