import Testing
@testable import MediaTransform

extension LibvipsTests {
    /// FormatChoice resolved against the source and the tier's declared formats; alpha kept or
    /// flattened onto white.
    @Suite struct FormatChoiceTests {
        /// 32×16: the left half opaque red, the right half fully transparent.
        static let halfTransparent = SyntheticPNG.rgba(width: 32, height: 16) { x, _ in
            x < 16 ? (255, 0, 0, 255) : (0, 0, 0, 0)
        }
        static let limits = TransformLimits()

        static func derive(_ source: [UInt8], _ format: FormatChoice, declared: [OutputFormat]) throws -> DerivedImage {
            try ImageTransformer.derive(source, spec: VariantSpec(width: 32, quality: 80, format: format),
                                        declared: declared, limits: limits, deadline: nil)
        }

        @Test func theCatalogHasNoAlphaButTheSyntheticPNGDoes() throws {
            #expect(ImageTransformer.probe(try Fixtures.bytes("catalog/chelsea.png"))?.hasAlpha == false)
            #expect(ImageTransformer.probe(Self.halfTransparent)
                    == ImageProbe(format: .png, width: 32, height: 16, pages: 1, hasAlpha: true))
        }

        @Test func legacyWithAlphaIsPNGAndKeepsIt() throws {
            let out = try Self.derive(Self.halfTransparent, .legacy, declared: [.jpeg, .png, .webp])
            #expect(out.format == .png)
            #expect(out.sourceHasAlpha)
            let decoded = try #require(Decoded(out.bytes))
            #expect(decoded.probe.hasAlpha)
            #expect(decoded.pixel(4, 8) == [255, 0, 0, 255])
            #expect(decoded.pixel(28, 8)?.last == 0)
        }

        @Test func legacyWithAlphaIsJPEGWhenPNGIsNotDeclared() throws {
            let out = try Self.derive(Self.halfTransparent, .legacy, declared: [.jpeg, .webp])
            #expect(out.format == .jpeg)
            #expect(out.sourceHasAlpha)
        }

        /// `fmt=auto` from a client that also accepts WebP, ranked after JPEG: WebP (with its alpha) instead of PNG for a
        /// source with alpha, JPEG for an opaque one.
        @Test func legacyOrWebPIsWebPWithAlphaAndJPEGWithout() throws {
            let transparent = try Self.derive(Self.halfTransparent, .legacyOr(.webp), declared: [.jpeg, .png, .webp])
            #expect(transparent.format == .webp)
            let decoded = try #require(Decoded(transparent.bytes))
            #expect(decoded.probe.hasAlpha)
            #expect(decoded.pixel(28, 8)?.last == 0)
            let opaque = try Self.derive(try Fixtures.bytes("catalog/chelsea.png"), .legacyOr(.webp), declared: [.jpeg, .png, .webp])
            #expect(opaque.format == .jpeg)
        }

        @Test func legacyWithoutAlphaIsJPEG() throws {
            let out = try Self.derive(try Fixtures.bytes("catalog/chelsea.png"), .legacy, declared: [.jpeg, .png])
            #expect(out.format == .jpeg)
            #expect(!out.sourceHasAlpha)
        }

        /// Transparent pixels become white, not black.
        @Test func jpegFlattensOntoWhite() throws {
            let out = try Self.derive(Self.halfTransparent, .format(.jpeg), declared: [.jpeg])
            #expect(out.format == .jpeg)
            let decoded = try #require(Decoded(out.bytes))
            #expect(decoded.image.bands == 3)
            let transparent = try #require(decoded.pixel(28, 8))
            #expect(transparent.allSatisfy { $0 >= 250 })
            let red = try #require(decoded.pixel(4, 8))
            #expect(red[0] >= 240 && red[1] <= 15 && red[2] <= 15)
        }

        @Test func webpAndAVIFKeepAlpha() throws {
            let webp = try Self.derive(Self.halfTransparent, .format(.webp), declared: [.webp])
            #expect(Decoded(webp.bytes)?.probe.hasAlpha == true)
            guard VipsRuntime.canSaveAVIF else { return }
            let avif = try Self.derive(Self.halfTransparent, .format(.avif), declared: [.avif])
            #expect(Decoded(avif.bytes)?.probe.hasAlpha == true)
        }

        @Test func sourceKeepsTheSourcesFormatWhenDeclared() throws {
            let webp = try Self.derive(try Fixtures.bytes("catalog/coffee.webp"), .source, declared: [.jpeg, .webp])
            #expect(webp.format == .webp)
            let png = try Self.derive(try Fixtures.bytes("catalog/chelsea.png"), .source, declared: [.jpeg, .png])
            #expect(png.format == .png)
            let gif = try Self.derive(try Fixtures.bytes("catalog/spinner.gif"), .source, declared: [.jpeg, .png])
            #expect(gif.format == .png)
        }

        @Test func sourceFallsBackToLegacyWhenItsFormatIsNotDeclared() throws {
            let webp = try Self.derive(try Fixtures.bytes("catalog/coffee.webp"), .source, declared: [.jpeg, .png])
            #expect(webp.format == .jpeg)
            let gif = try Self.derive(try Fixtures.bytes("catalog/spinner.gif"), .source, declared: [.jpeg, .png, .webp])
            #expect(gif.format == .png)
            let gifNoPNG = try Self.derive(try Fixtures.bytes("catalog/spinner.gif"), .source, declared: [.jpeg, .webp])
            #expect(gifNoPNG.format == .jpeg)
        }

        @Test(arguments: [
            (FormatChoice.source, SourceFormat.avif, false, [OutputFormat.avif, .jpeg], true, OutputFormat.jpeg),
            (.source, .avif, false, [.avif, .webp, .jpeg], true, .webp),
            (.source, .avif, false, [.avif, .jpeg], false, .jpeg),
            (.source, .avif, true, [.avif, .png], false, .png),
            (.source, .jpeg, false, [], true, .jpeg),
            (.legacy, .png, true, [.png], true, .png),
            (.legacy, .png, true, [.webp, .avif], true, .webp),
            (.legacy, .jpeg, false, [.avif], true, .avif),
            (.source, .jpeg, false, [.webp], true, .webp),
            (.format(.webp), .gif, true, [.jpeg], true, .webp),
        ])
        func resolution(choice: FormatChoice, source: SourceFormat, alpha: Bool, declared: [OutputFormat],
                        canSaveAVIF: Bool, expected: OutputFormat) {
            let header = ImageProbe(format: source, width: 10, height: 10, pages: 1, hasAlpha: alpha)
            #expect(FormatStep.resolve(choice, source: header, declared: declared, canSaveAVIF: canSaveAVIF) == expected)
        }
    }
}
