import Testing
@testable import MediaTransform

extension LibvipsTests {
    /// Animated sources give their first frame only.
    @Suite struct AnimatedSourceTests {
        @Test func theSpinnerHas24Frames() throws {
            #expect(ImageTransformer.probe(try Fixtures.bytes("catalog/spinner.gif"))
                    == ImageProbe(format: .gif, width: 14, height: 25, pages: 24, hasAlpha: true))
        }

        @Test(arguments: [OutputFormat.png, .webp, .jpeg])
        func firstFrameOnly(format: OutputFormat) throws {
            let out = try ImageTransformer.derive(
                try Fixtures.bytes("catalog/spinner.gif"), spec: VariantSpec(width: 14, quality: 80, format: .format(format)),
                declared: OutputFormat.allCases, limits: TransformLimits(), deadline: nil)
            #expect(out.format == format)
            #expect((out.width, out.height) == (14, 25))
            let probe = try #require(ImageTransformer.probe(out.bytes))
            #expect((probe.width, probe.height, probe.pages) == (14, 25, 1))
            // WebP animation chunks, APNG's animation control chunk.
            for marker in ["ANIM", "ANMF", "acTL"] {
                #expect(!Bytes.contains(out.bytes, marker), "\(marker) in \(format)")
            }
        }
    }
}
