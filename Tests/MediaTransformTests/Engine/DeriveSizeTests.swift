import Testing
@testable import MediaTransform

extension LibvipsTests {
    /// Output sizes: shrink-on-load into the box, libvips' rounding, EXIF orientation, cover crops, no
    /// upscaling.
    @Suite struct DeriveSizeTests {
        static let limits = TransformLimits(maxSourcePixels: 50_000_000, maxOutputPixels: 16_777_216)

        static func derive(_ path: String, _ spec: VariantSpec, declared: [OutputFormat] = OutputFormat.allCases)
            throws -> DerivedImage {
            try ImageTransformer.derive(try Fixtures.bytes(path), spec: spec, declared: declared, limits: limits,
                                        deadline: nil)
        }

        @Test func largeJPEGTo144PixelJPEG() throws {
            let out = try Self.derive("large/astronaut-4000.jpg", VariantSpec(width: 144, quality: 80, format: .format(.jpeg)))
            #expect(out.format == .jpeg)
            #expect((out.width, out.height) == (144, 144))
            #expect(Array(out.bytes.prefix(3)) == [0xFF, 0xD8, 0xFF])
            let probe = try #require(ImageTransformer.probe(out.bytes))
            #expect(probe == ImageProbe(format: .jpeg, width: 144, height: 144, pages: 1, hasAlpha: false))
        }

        /// 1000×872 at 576 wide: 872 × 0.576 = 502.27, which libvips rounds to 502.
        @Test func hubbleTo576PixelWebP() throws {
            let out = try Self.derive("large/hubble-1000.jpg", VariantSpec(width: 576, quality: 80, format: .format(.webp)))
            #expect(out.format == .webp)
            #expect((out.width, out.height) == (576, 502))
            let probe = try #require(ImageTransformer.probe(out.bytes))
            #expect(probe == ImageProbe(format: .webp, width: 576, height: 502, pages: 1, hasAlpha: false))
        }

        /// Stored 872×1000 with Orientation 6: shown upright 1000×872, so 144 wide is 872 × 0.144 =
        /// 125.57 high, which libvips rounds to 126; the output carries no orientation to apply again.
        @Test func exifOrientationIsApplied() throws {
            let source = try Fixtures.bytes("uploads/gps-orient6.jpg")
            #expect(ImageTransformer.probe(source) == ImageProbe(format: .jpeg, width: 872, height: 1000, pages: 1,
                                                                 hasAlpha: false, orientation: 6))
            let out = try Self.derive("uploads/gps-orient6.jpg", VariantSpec(width: 144, quality: 80, format: .source))
            #expect(out.format == .jpeg)
            #expect((out.width, out.height) == (144, 126))
            let probe = try #require(ImageTransformer.probe(out.bytes))
            #expect((probe.width, probe.height, probe.orientation) == (144, 126, 1))
        }

        @Test func coverFillsAndCropsTheBox() throws {
            let out = try Self.derive("large/hubble-1000.jpg",
                                      VariantSpec(width: 288, height: 288, fit: .cover, quality: 80, format: .format(.jpeg)))
            #expect((out.width, out.height) == (288, 288))
        }

        @Test func insideKeepsTheAspectRatioInTheBox() throws {
            let out = try Self.derive("large/hubble-1000.jpg",
                                      VariantSpec(width: 288, height: 288, fit: .inside, quality: 80, format: .format(.jpeg)))
            // 288 / 1000 × 872 = 251.1
            #expect((out.width, out.height) == (288, 251))
        }

        @Test func neverUpscales() throws {
            let inside = try Self.derive("catalog/horse-d29d871c.jpg", VariantSpec(width: 576, quality: 80, format: .source))
            #expect((inside.width, inside.height) == (256, 256))
            let cover = try Self.derive("catalog/horse-d29d871c.jpg",
                                        VariantSpec(width: 288, height: 288, fit: .cover, quality: 80, format: .source))
            #expect((cover.width, cover.height) == (256, 256))
        }

        /// Only a width: the height bound is maxOutputPixels / width, so a very tall source cannot
        /// exceed the output limit.
        @Test func widthOnlyBoxIsClampedToTheOutputLimit() throws {
            let limits = TransformLimits(maxSourcePixels: 50_000_000, maxOutputPixels: 144 * 100)
            let out = try ImageTransformer.derive(
                try Fixtures.bytes("large/astronaut-4000.jpg"), spec: VariantSpec(width: 144, quality: 80, format: .source),
                declared: [.jpeg], limits: limits, deadline: nil)
            #expect((out.width, out.height) == (100, 100))
        }

        @Test func greyscaleSourceBecomesSRGB() throws {
            let out = try Self.derive("catalog/horse-d29d871c.jpg", VariantSpec(width: 128, quality: 80, format: .format(.png)))
            let decoded = try #require(Decoded(out.bytes))
            #expect(decoded.image.bands == 3)
            #expect((out.width, out.height) == (128, 128))
        }
    }
}
