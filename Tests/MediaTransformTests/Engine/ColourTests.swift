import Testing
@testable import MediaTransform

extension LibvipsTests {
    /// Every output is 8-bit sRGB, with embedded profiles applied and no source taken through a
    /// needless conversion.
    @Suite struct ColourTests {
        static func derive(_ source: [UInt8], width: Int, format: OutputFormat = .png) throws -> Decoded {
            let out = try ImageTransformer.derive(
                source, spec: VariantSpec(width: width, quality: 90, format: .format(format)), declared: [],
                limits: TransformLimits(), deadline: nil)
            return try #require(Decoded(out.bytes))
        }

        /// A source with no profile keeps its exact pixel values (PNG is lossless).
        @Test func noProfileMeansNoConversion() throws {
            let png = SyntheticPNG.rgba(width: 4, height: 4) { x, _ in
                [(255, 0, 0, 255), (0, 255, 0, 255), (0, 0, 255, 255), (12, 200, 97, 255)][x]
            }
            let decoded = try Self.derive(png, width: 4)
            #expect(decoded.pixel(0, 1) == [255, 0, 0, 255])
            #expect(decoded.pixel(1, 1) == [0, 255, 0, 255])
            #expect(decoded.pixel(2, 1) == [0, 0, 255, 255])
            #expect(decoded.pixel(3, 1) == [12, 200, 97, 255])
        }

        /// hubble carries an sRGB profile: applying it to sRGB leaves the pixels nearly as they are.
        @Test func embeddedSRGBProfileIsAppliedAndDropped() throws {
            let source = try Fixtures.bytes("large/hubble-1000.jpg")
            let decoded = try Self.derive(source, width: 1000)
            #expect(decoded.image.bands == 3)
            #expect(!decoded.image.has("icc-profile-data"))
        }

        /// A CMYK JPEG without a profile is converted to sRGB by thumbnail's CMYK fallback; its
        /// attached CMYK profile is dropped, not applied a second time.
        @Test func cmykBecomesSRGB() throws {
            let probe = try #require(ImageTransformer.probe(EmbeddedFixtures.cmykJPEG))
            #expect((probe.width, probe.height, probe.hasAlpha) == (32, 32, false))
            let decoded = try Self.derive(EmbeddedFixtures.cmykJPEG, width: 32)
            #expect(decoded.image.bands == 3)
            #expect(!decoded.image.has("icc-profile-data"))
            let pixel = try #require(decoded.pixel(16, 16))
            #expect(pixel.count == 3)
            // About (185, 155, 141) through libvips' CMYK profile; the sRGB original was (185, 150, 139).
            #expect(zip(pixel, [185.0, 150, 139]).allSatisfy { abs($0 - $1) <= 12 }, "\(pixel)")
        }

        /// r-7731.png is greyscale with an ICC profile libpng warns about ("invalid rendering
        /// intent"): still decoded, written as 3-band sRGB.
        @Test func greyscaleWithAQuestionableProfile() throws {
            let decoded = try Self.derive(try Fixtures.bytes("receipts/r-7731.png"), width: 192, format: .jpeg)
            #expect((decoded.probe.width, decoded.probe.height) == (192, 96))
            #expect(decoded.image.bands == 3)
        }

        /// A JPEG whose APP2 ICC profile is garbage: libvips warns "corrupt profile" and falls back
        /// to sRGB, so the pixels come out exactly as without the profile.
        @Test func unusableProfileIsIgnored() throws {
            let plain = try Fixtures.bytes("catalog/chelsea-5d40df37.jpg")
            let garbage = (0..<200).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
            let payload = Array("ICC_PROFILE".utf8) + [0, 1, 1] + garbage
            let length = payload.count + 2
            let segment: [UInt8] = [0xFF, 0xE2, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
            let withProfile = Array(plain[0..<2]) + segment + Array(plain[2...])
            let managed = try Self.derive(withProfile, width: 64)
            let unmanaged = try Self.derive(plain, width: 64)
            #expect(!managed.image.has("icc-profile-data"))
            #expect(managed.pixel(10, 10) == unmanaged.pixel(10, 10))
            #expect(managed.pixel(40, 50) == unmanaged.pixel(40, 50))
        }
    }
}
