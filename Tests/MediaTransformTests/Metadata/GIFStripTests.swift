import Testing
@testable import MediaTransform

@Suite struct GIFStripTests {
    typealias B = ImageBytes

    /// spinner.gif: GIF89a, 14×25, a 256-colour global table (768 bytes), so its first block (NETSCAPE2.0)
    /// is at 781; then 20 frames, each a Graphic Control Extension and an image; the trailer at 4437.
    static func spinner() throws -> [UInt8] { try Fixtures.bytes("catalog/spinner.gif") }

    /// A Comment Extension with `text` in sub-blocks of at most 255 bytes.
    static func comment(_ text: String) -> [UInt8] {
        let bytes = B.ascii(text)
        var out: [UInt8] = [0x21, 0xFE]
        for start in stride(from: 0, to: bytes.count, by: 255) {
            let piece = bytes[start..<min(bytes.count, start + 255)]
            out += [UInt8(piece.count)] + piece
        }
        return out + [0]
    }

    /// The XMP application extension as XMP part 3 §1.1.2 writes it: the packet raw, then the 258-byte
    /// "magic trailer" (01, FF FE … 01 00, 00) that makes any sub-block walk end at the terminator.
    static func xmp(_ packet: String) -> [UInt8] {
        [0x21, 0xFF, 11] + B.ascii("XMP DataXMP") + B.ascii(packet) + [0x01] + (0...255).reversed().map { UInt8($0) } + [0x00]
    }

    /// A NETSCAPE2.0 looping extension (kept).
    static let netscape: [UInt8] = [0x21, 0xFF, 11] + Array("NETSCAPE2.0".utf8) + [3, 1, 0, 0, 0]

    @Test func withoutMetadataByteIdentical() throws {
        let original = try Self.spinner()
        #expect(original.contains(bytes: B.ascii("NETSCAPE2.0")))
        #expect(try MetadataStripper.strip(original) == StrippedImage(bytes: original, removed: [], orientation: nil))
    }

    @Test func commentsAndXMPAreRemoved() throws {
        let original = try Self.spinner()
        let long = String(repeating: "Shot at 48.85 N 2.29 E by Jane Roe. ", count: 10)
        let withMetadata = B.insert(Self.comment("made by hand") + Self.xmp("<x:xmpmeta>GPS</x:xmpmeta>"), into: original, at: 781)
        let alsoAtTheEnd = B.insert(Self.comment(long), into: withMetadata, at: withMetadata.count - 1)
        let stripped = try MetadataStripper.strip(alsoAtTheEnd)
        #expect(stripped == StrippedImage(bytes: original, removed: ["Comment", "XMP", "Comment"], orientation: nil))
        #expect(!stripped.bytes.contains(bytes: B.ascii("Jane Roe")))
    }

    @Test func otherApplicationExtensionsAreKept() throws {
        let original = try Self.spinner()
        let icc: [UInt8] = [0x21, 0xFF, 11] + B.ascii("ICCRGBG1012") + [4, 1, 2, 3, 4, 0]
        let input = B.insert(icc + Self.netscape, into: original, at: 781)
        #expect(try MetadataStripper.strip(input) == StrippedImage(bytes: input, removed: [], orientation: nil))
    }

    @Test func trailingBytesAfterTheTrailerAreDropped() throws {
        let original = try Self.spinner()
        #expect(try MetadataStripper.strip(original + B.ascii("<?php")) == StrippedImage(bytes: original, removed: ["trailing data"], orientation: nil))
    }

    @Test(.enabled(if: Vips.available)) func strippedGIFDecodesToTheSamePixels() throws {
        let original = try Self.spinner()
        let stripped = try MetadataStripper.strip(B.insert(Self.comment("hello"), into: original, at: 781)).bytes
        #expect(try Vips.average(stripped, suffix: "gif") == "147.680000")
    }

    func detail(_ bytes: [UInt8]) -> String? { StripRefusal.detail(bytes) }

    @Test func malformedFilesAreRefused() throws {
        let original = try Self.spinner()
        let header = Array(original[..<781])
        #expect(detail(B.ascii("GIF89a")) == "GIF: the file does not start with GIF87a or GIF89a and a logical screen descriptor")
        #expect(detail(B.ascii("GIF88a") + Array(repeating: 0, count: 7)) == "GIF: the file does not start with GIF87a or GIF89a and a logical screen descriptor")
        #expect(detail(Array(original.prefix(100))) == "GIF: the global colour table runs past the end of the file")
        #expect(detail(header) == "GIF: the file ends at offset 781, before the trailer (3B)")
        // The seventh frame's image descriptor is at 1918 (walked independently with Python).
        #expect(detail(Array(original.prefix(2000))) == "GIF: the image data at offset 1918 runs past the end of the file")
        #expect(detail(header + [0x21]) == "GIF: the extension at offset 781 runs past the end of the file")
        #expect(detail(header + [0x21, 0xFE, 10, 1, 2]) == "GIF: the extension 0xFE at offset 781 runs past the end of the file")
        #expect(detail(header + [0x2C, 0, 0]) == "GIF: the image descriptor at offset 781 runs past the end of the file")
        #expect(detail(header + [0x00, 0x3B]) == "GIF: unknown block 0x00 at offset 781")
    }
}
