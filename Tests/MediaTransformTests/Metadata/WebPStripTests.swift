import Testing
@testable import MediaTransform

@Suite struct WebPStripTests {
    typealias B = ImageBytes

    /// coffee.webp's `VP8 ` chunk (a 256×256 simple-format WebP: RIFF header, then this one chunk).
    static func coffeeVP8() throws -> [UInt8] { Array(try Fixtures.bytes("catalog/coffee.webp")[12...]) }

    static let exifFlag: UInt8 = 0x08, xmpFlag: UInt8 = 0x04, iccFlag: UInt8 = 0x20

    static func minimalEXIF(littleEndian: Bool, _ orientation: UInt8) -> [UInt8] {
        B.ascii("EXIF") + [26, 0, 0, 0] + B.minimalTIFF(littleEndian: littleEndian, orientation: orientation)
    }

    @Test func simpleFormatWithoutMetadataByteIdentical() throws {
        let original = try Fixtures.bytes("catalog/coffee.webp")
        #expect(try MetadataStripper.strip(original) == StrippedImage(bytes: original, removed: [], orientation: nil))
    }

    @Test func extendedFormatKeepsOnlyTheOrientation() throws {
        let vp8 = try Self.coffeeVP8()
        let xmp = B.riffChunk("XMP ", B.ascii("<x:xmpmeta>GPS 48.85N</x:xmpmeta>"))  // odd size: padded
        let exif = B.riffChunk("EXIF", B.cameraTIFF(littleEndian: true, orientation: 3))
        let input = B.webp([B.vp8x(flags: Self.exifFlag | Self.xmpFlag, width: 256, height: 256), vp8, exif, xmp])
        let stripped = try MetadataStripper.strip(input)
        #expect(stripped.removed == ["EXIF", "XMP"])
        #expect(stripped.orientation == 3)
        #expect(stripped.bytes == B.webp([B.vp8x(flags: Self.exifFlag, width: 256, height: 256), vp8, Self.minimalEXIF(littleEndian: true, 3)]))
        #expect(stripped.bytes.count == 12 + 18 + vp8.count + 34)
        #expect(Array(stripped.bytes[4..<8]) == B.u32le(stripped.bytes.count - 8))
        #expect(!stripped.bytes.contains(bytes: B.ascii("SN-4417-2208")))
        #expect(try MetadataStripper.strip(stripped.bytes) == StrippedImage(bytes: stripped.bytes, removed: [], orientation: 3))
    }

    @Test(.enabled(if: Vips.available)) func strippedWebPDecodesToTheSamePixels() throws {
        let vp8 = try Self.coffeeVP8()
        let exif = B.riffChunk("EXIF", B.cameraTIFF(littleEndian: false, orientation: 6))
        let input = B.webp([B.vp8x(flags: Self.exifFlag, width: 256, height: 256), vp8, exif])
        let stripped = try MetadataStripper.strip(input).bytes
        #expect(try Vips.average(stripped, suffix: "webp") == "92.642003")
        #expect(try Vips.average(try Fixtures.bytes("catalog/coffee.webp"), suffix: "webp") == "92.642003")
        #expect(try Vips.header("orientation", stripped, suffix: "webp") == "6")
    }

    @Test func withoutOrientationTheFlagsAreCleared() throws {
        let vp8 = try Self.coffeeVP8()
        let iccp = B.riffChunk("ICCP", [1, 2, 3, 4])
        let input = B.webp([B.vp8x(flags: Self.iccFlag | Self.exifFlag | Self.xmpFlag, width: 256, height: 256), iccp, vp8,
                            B.riffChunk("EXIF", B.cameraTIFF(littleEndian: false, orientation: nil)), B.riffChunk("XMP ", B.ascii("<x/>"))])
        let stripped = try MetadataStripper.strip(input)
        #expect(stripped == StrippedImage(bytes: B.webp([B.vp8x(flags: Self.iccFlag, width: 256, height: 256), iccp, vp8]),
                                          removed: ["EXIF", "XMP"], orientation: nil))
    }

    @Test func simpleFormatCannotCarryTheOrientation() throws {
        // An EXIF chunk after a simple-format image (no VP8X): removed; the orientation is reported only.
        let original = try Fixtures.bytes("catalog/coffee.webp")
        let input = B.webp([try Self.coffeeVP8(), B.riffChunk("EXIF", B.cameraTIFF(littleEndian: false, orientation: 6))])
        #expect(try MetadataStripper.strip(input) == StrippedImage(bytes: original, removed: ["EXIF"], orientation: 6))
    }

    @Test func trailingBytesAfterTheRIFFDataAreDropped() throws {
        let original = try Fixtures.bytes("catalog/coffee.webp")
        #expect(try MetadataStripper.strip(original + B.ascii("<html>")) == StrippedImage(bytes: original, removed: ["trailing data"], orientation: nil))
    }

    func detail(_ bytes: [UInt8]) -> String? { StripRefusal.detail(bytes) }

    @Test func malformedFilesAreRefused() throws {
        let original = try Fixtures.bytes("catalog/coffee.webp")
        #expect(detail(Array(original.prefix(5000))) == "WebP: the RIFF size 10128 runs past the end of the file (5000 bytes)")
        #expect(detail(B.ascii("RIFF") + B.u32le(2) + B.ascii("WEBP")) == "WebP: the RIFF size 2 runs past the end of the file (12 bytes)")
        #expect(detail(B.ascii("RIFF") + B.u32le(8) + B.ascii("WEBPVP8 ")) == "WebP: the chunk header at offset 12 runs past the RIFF data (ends at 16)")
        #expect(detail(B.webp([B.ascii("VP8 ") + B.u32le(100) + [1, 2, 3, 4]]))
            == "WebP: chunk 'VP8 ' at offset 12 is 100 bytes long, past the RIFF data (ends at 24)")
        #expect(detail(B.webp([B.ascii("VP8 ") + B.u32le(3) + [1, 2, 3]]))
            == "WebP: chunk 'VP8 ' at offset 12 is 3 bytes long, past the RIFF data (ends at 23)")
        #expect(detail(B.webp([B.riffChunk("VP8X", [0, 0, 0, 0])])) == "WebP: chunk 'VP8X' at offset 12 is 4 bytes long (at least 10)")
        #expect(throws: MetadataStripError(detail: "WebP: the file does not start with RIFF <size> WEBP")) {
            try WebPMetadataStripper.strip(B.ascii("RIFF"))
        }
    }
}
