import Testing
@testable import MediaTransform

@Suite struct PNGStripTests {
    typealias B = ImageBytes

    /// The chunk types of a PNG, in order, walked by their lengths.
    static func chunkTypes(_ png: [UInt8]) -> [String] {
        var types: [String] = []
        var position = 8
        while position + 12 <= png.count {
            let length = png[position..<(position + 4)].reduce(0) { $0 << 8 | Int($1) }
            types.append(String(decoding: png[(position + 4)..<(position + 8)], as: UTF8.self))
            position += 12 + length
        }
        return types
    }

    @Test func textAndTimeChunksAreRemoved() throws {
        let original = try Fixtures.bytes("catalog/chelsea.png")
        #expect(Self.chunkTypes(original) == ["IHDR", "gAMA", "cHRM", "bKGD", "pHYs", "tIME", "IDAT", "IDAT", "IDAT", "IDAT", "tEXt", "tEXt", "IEND"])
        let stripped = try MetadataStripper.strip(original)
        #expect(stripped.removed == ["tIME", "tEXt", "tEXt"])
        #expect(stripped.orientation == nil)
        #expect(Self.chunkTypes(stripped.bytes) == ["IHDR", "gAMA", "cHRM", "bKGD", "pHYs", "IDAT", "IDAT", "IDAT", "IDAT", "IEND"])
        #expect(stripped.bytes.count == 120_655 - 19 - 2 * 49)
        #expect(!stripped.bytes.contains(bytes: B.ascii("tEXt")))
        #expect(try MetadataStripper.strip(stripped.bytes) == StrippedImage(bytes: stripped.bytes, removed: [], orientation: nil))
    }

    @Test(.enabled(if: Vips.available)) func strippedPNGDecodesToTheSamePixels() throws {
        let original = try Fixtures.bytes("catalog/chelsea.png")
        let stripped = try MetadataStripper.strip(original).bytes
        #expect(try Vips.average(stripped, suffix: "png") == "111.770742")
        #expect(try Vips.average(original, suffix: "png") == "111.770742")
    }

    @Test func withoutMetadataByteIdentical() throws {
        for path in ["receipts/r-7731.png", "hostile/bomb-12000x12000-valid.png"] {
            let original = try Fixtures.bytes(path)
            #expect(try MetadataStripper.strip(original) == StrippedImage(bytes: original, removed: [], orientation: nil), "\(path)")
        }
    }

    /// The minimal eXIf chunk, written out by hand (CRC from ``CRC32``, checked against published values).
    static func minimalEXIf(littleEndian: Bool, _ orientation: UInt8) -> [UInt8] {
        B.pngChunk("eXIf", B.minimalTIFF(littleEndian: littleEndian, orientation: orientation))
    }

    @Test func exifOrientationIsKeptAloneAfterIHDR() throws {
        let phys = B.pngChunk("pHYs", B.u32be(2835) + B.u32be(2835) + [1])
        let png = B.pngSignature + B.pngIHDR
            + B.pngChunk("tEXt", B.ascii("Author") + [0] + B.ascii("Jane Roe"))
            + phys
            + B.pngChunk("eXIf", B.cameraTIFF(littleEndian: false, orientation: 6))
            + B.pngChunk("zTXt", B.ascii("Comment") + [0, 0, 0x78, 0x9C, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01])
            + B.pngIDAT
            + B.pngChunk("iTXt", B.ascii("GPS") + [0, 0, 0, 0, 0] + B.ascii("48.85 N"))
            + B.pngChunk("tIME", [0x07, 0xEA, 6, 14, 9, 41, 7])
            + B.pngIEND
        let stripped = try MetadataStripper.strip(png)
        #expect(stripped.removed == ["tEXt", "eXIf", "zTXt", "iTXt", "tIME"])
        #expect(stripped.orientation == 6)
        #expect(stripped.bytes == B.pngSignature + B.pngIHDR + Self.minimalEXIf(littleEndian: false, 6) + phys + B.pngIDAT + B.pngIEND)
        #expect(!stripped.bytes.contains(bytes: B.ascii("SN-4417-2208")))
        #expect(try MetadataStripper.strip(stripped.bytes) == StrippedImage(bytes: stripped.bytes, removed: [], orientation: 6))
    }

    @Test(.enabled(if: Vips.available)) func syntheticPNGDecodes() throws {
        let png = B.pngSignature + B.pngIHDR + B.pngChunk("eXIf", B.cameraTIFF(littleEndian: true, orientation: 8)) + B.pngIDAT + B.pngIEND
        let stripped = try MetadataStripper.strip(png).bytes
        #expect(try Vips.average(stripped, suffix: "png") == "0.000000")
        #expect(try Vips.header("width", stripped, suffix: "png") == "1")
    }

    @Test func exifVariants() throws {
        let base = B.pngSignature + B.pngIHDR
        let tail = B.pngIDAT + B.pngIEND
        // Little-endian, with the JPEG-style "Exif\0\0" prefix some writers add.
        let prefixed = B.pngChunk("eXIf", B.ascii("Exif") + [0, 0] + B.cameraTIFF(littleEndian: true, orientation: 3))
        let stripped = try MetadataStripper.strip(base + prefixed + tail)
        #expect(stripped == StrippedImage(bytes: base + Self.minimalEXIf(littleEndian: true, 3) + tail, removed: ["eXIf"], orientation: 3))
        // Orientation 1: nothing to keep.
        let upright = B.pngChunk("eXIf", B.cameraTIFF(littleEndian: false, orientation: 1))
        #expect(try MetadataStripper.strip(base + upright + tail) == StrippedImage(bytes: base + tail, removed: ["eXIf"], orientation: 1))
        // Unreadable EXIF: removed, no orientation.
        let garbage = B.pngChunk("eXIf", [1, 2, 3])
        #expect(try MetadataStripper.strip(base + garbage + tail) == StrippedImage(bytes: base + tail, removed: ["eXIf"], orientation: nil))
    }

    @Test func trailingBytesAfterIENDAreDropped() throws {
        let png = B.pngSignature + B.pngIHDR + B.pngIDAT + B.pngIEND
        #expect(try MetadataStripper.strip(png + B.ascii("<script>")) == StrippedImage(bytes: png, removed: ["trailing data"], orientation: nil))
    }

    func detail(_ bytes: [UInt8]) -> String? { StripRefusal.detail(bytes) }

    @Test func malformedFilesAreRefused() throws {
        let sig = B.pngSignature
        #expect(detail(try Fixtures.bytes("hostile/bad-crc.png")) == "PNG: chunk IHDR at offset 8 has CRC 0x2C103F31, computed 0xD3103F31")
        #expect(detail(sig) == "PNG: the file ends at offset 8, before IEND")
        #expect(detail(sig + B.pngIHDR + B.pngIDAT) == "PNG: the file ends at offset 58, before IEND")
        #expect(detail(sig + Array(B.pngIHDR.prefix(20))) == "PNG: chunk IHDR at offset 8 is 13 bytes long, past the end of the file (28 bytes)")
        #expect(detail(sig + B.pngIDAT + B.pngIEND) == "PNG: the first chunk is IDAT, not IHDR")
        #expect(detail(sig + B.pngIHDR + B.u32be(0) + [0x49, 0x44, 0x31, 0x54] + B.u32be(0))
            == "PNG: the chunk at offset 33 has type 49 44 31 54, not four letters")
        #expect(detail(sig + B.pngIHDR + B.u32be(0x8000_0000) + B.ascii("IDAT") + B.u32be(0))
            == "PNG: chunk IDAT at offset 33 has length 2147483648 (at most 2147483647)")
        var corrupt = sig + B.pngIHDR + B.pngIDAT + B.pngIEND
        corrupt[45] ^= 0x01  // a byte of IDAT's data
        #expect(detail(corrupt) == "PNG: chunk IDAT at offset 33 has CRC 0x7E050DD2, computed 0x697E1991")  // both checked with Python zlib.crc32
    }
}
