@testable import MediaService
import Testing

@Suite struct ImageValidatorCorpusTests {
    let validator = ImageValidator()

    @Test func everyAcceptedCorpusImageHasItsManifestFormatAndSize() throws {
        let entries = try Fixtures.manifest().filter { $0.tier != "reject" }
        #expect(entries.count == 22)
        for entry in entries {
            let info = try validator.validate(try Fixtures.bytes(entry.path))
            #expect(info.format.name.uppercased() == entry.format, "\(entry.path)")
            #expect(info.width == entry.width, "\(entry.path)")
            #expect(info.height == entry.height, "\(entry.path)")
            #expect(info.byteCount == entry.bytes, "\(entry.path)")
        }
    }

    static let hostile: [(path: String, code: String, context: String)] = [
        ("hostile/bad-crc.png", "corrupt-image", "PNG: IHDR CRC mismatch (stored 0x2C103F31, computed 0xD3103F31)"),
        ("hostile/bomb-12000x12000-valid.png", "over-pixel-limit",
         "PNG IHDR is 12000x12000 = 144000000 pixels, over the limit of 50000000"),
        ("hostile/bomb-60000x60000.png", "over-pixel-limit",
         "PNG IHDR is 60000x60000 = 3600000000 pixels, over the limit of 50000000"),
        ("hostile/empty.jpg", "empty-body", "the body has 0 bytes"),
        ("hostile/html-named.jpg", "not-an-image", "no known image signature in the first bytes"),
        ("hostile/jpeg-with-html-tail.jpg", "trailing-data", "JPEG: 38 bytes follow the end of the image at offset 2936"),
        ("hostile/script.svg", "not-an-image", "no known image signature in the first bytes"),
        ("hostile/truncated.jpg", "truncated-image", "JPEG: ends at byte 6000 inside entropy-coded data, before EOI"),
    ]

    @Test func theManifestListsExactlyTheseHostileFiles() throws {
        let listed = try Fixtures.manifest().filter { $0.tier == "reject" }.map(\.path)
        #expect(listed == Self.hostile.map(\.path))
    }

    @Test(arguments: Self.hostile.indices)
    func hostileFileIsRefusedWithItsReason(_ index: Int) throws {
        let (path, code, context) = Self.hostile[index]
        let body = try Fixtures.bytes(path)
        #expect(throws: ImageValidationError(ImageValidationError.Code(rawValue: code), context)) {
            try validator.validate(body)
        }
    }

    @Test func theValidBombPassesWithAHigherLimit() throws {
        let body = try Fixtures.bytes("hostile/bomb-12000x12000-valid.png")
        let info = try ImageValidator(configuration: .init(maxPixels: 144_000_000)).validate(body)
        #expect(info == ImageInfo(format: .png, width: 12000, height: 12000, byteCount: 140051))
    }

    @Test func truncatedCorpusPNGIsTruncated() throws {
        let body = Array(try Fixtures.bytes("catalog/chelsea.png").prefix(120643))
        #expect(throws: ImageValidationError(.truncatedImage, "PNG: ends at byte 120643 before IEND")) {
            try validator.validate(body)
        }
    }

    @Test func corpusPNGCutInsideAChunkIsTruncated() throws {
        let body = Array(try Fixtures.bytes("catalog/chelsea.png").prefix(40000))
        #expect(throws: ImageValidationError(.truncatedImage, "PNG: chunk IDAT at offset 32931 ends past the body")) {
            try validator.validate(body)
        }
    }

    @Test func corpusPNGWithAFlippedIDATByteIsCorrupt() throws {
        var body = try Fixtures.bytes("catalog/chelsea.png")
        body[40000] ^= 0x01
        #expect(throws: ImageValidationError(.corruptImage, "PNG: chunk IDAT at offset 32931 has a bad CRC")) {
            try validator.validate(body)
        }
    }

    @Test func corpusPNGWithTrailingBytesIsRefused() throws {
        let body = try Fixtures.bytes("catalog/chelsea.png") + Array("<script>".utf8)
        #expect(throws: ImageValidationError(.trailingData, "PNG: 8 bytes follow the end of the image at offset 120655")) {
            try validator.validate(body)
        }
    }

    @Test func corpusWebPShortenedIsTruncated() throws {
        let body = Array(try Fixtures.bytes("catalog/coffee.webp").dropLast(100))
        #expect(throws: ImageValidationError(.truncatedImage, "WebP: RIFF size declares 10136 bytes, the body has 10036")) {
            try validator.validate(body)
        }
    }

    @Test func corpusWebPWithTrailingBytesIsRefused() throws {
        let body = try Fixtures.bytes("catalog/coffee.webp") + [0, 0]
        #expect(throws: ImageValidationError(.trailingData, "WebP: 2 bytes follow the end of the image at offset 10136")) {
            try validator.validate(body)
        }
    }

    @Test func corpusGIFWithoutItsTrailerIsTruncated() throws {
        let body = Array(try Fixtures.bytes("catalog/spinner.gif").dropLast())
        #expect(throws: ImageValidationError(.truncatedImage, "GIF: ends at byte 4437 before the trailer")) {
            try validator.validate(body)
        }
    }

    @Test func corpusJPEGWithoutEOIIsTruncated() throws {
        let body = Array(try Fixtures.bytes("catalog/horse-d29d871c.jpg").dropLast(2))
        #expect(throws: ImageValidationError(.truncatedImage, "JPEG: ends at byte 5912 inside entropy-coded data, before EOI")) {
            try validator.validate(body)
        }
    }

    @Test func pixelLimitIsInclusive() throws {
        let body = try Fixtures.bytes("catalog/horse-d29d871c.jpg")
        #expect(try ImageValidator(configuration: .init(maxPixels: 65536)).validate(body).pixelCount == 65536)
        #expect(throws: ImageValidationError(.overPixelLimit, "JPEG frame is 256x256 = 65536 pixels, over the limit of 65535")) {
            try ImageValidator(configuration: .init(maxPixels: 65535)).validate(body)
        }
    }

    @Test func byteLimitIsCheckedFirst() throws {
        let body = try Fixtures.bytes("catalog/horse-d29d871c.jpg")
        #expect(throws: ImageValidationError(.overSizeLimit, "5914 bytes exceed the limit of 5913")) {
            try ImageValidator(configuration: .init(maxBytes: 5913)).validate(body)
        }
        #expect(try ImageValidator(configuration: .init(maxBytes: 5914)).validate(body).byteCount == 5914)
    }
}
