import MediaCore
@testable import MediaService
import Testing

@Suite struct ImageValidatorStructureTests {
    let validator = ImageValidator()

    private func refusal(_ body: [UInt8], _ validator: ImageValidator = ImageValidator()) -> ImageValidationError? {
        do {
            _ = try validator.validate(body)
            return nil
        } catch {
            return error
        }
    }

    @Test func crc32KnownAnswer() {
        #expect(CRC32.checksum(Array("123456789".utf8), 0..<9) == 0xCBF4_3926)
    }

    // MARK: JPEG

    @Test func syntheticJPEGWithStuffingAndRestartMarkers() throws {
        #expect(try validator.validate(ImageBuilder.jpeg(width: 640, height: 480))
            == ImageInfo(format: .jpeg, width: 640, height: 480, byteCount: 42))
    }

    @Test func jpegScanBeforeFrameHeaderIsCorrupt() {
        #expect(refusal(ImageBuilder.jpeg(width: 1, height: 1, frame: false))
            == ImageValidationError(.corruptImage, "JPEG: scan before a frame header"))
    }

    @Test func jpegZeroHeightIsCorrupt() {
        #expect(refusal(ImageBuilder.jpeg(width: 10, height: 0))
            == ImageValidationError(.corruptImage, "JPEG frame has a zero dimension (10x0)"))
    }

    @Test func jpegSegmentPastTheEndIsTruncated() {
        let body = Array(ImageBuilder.jpeg(width: 8, height: 8).prefix(14))
        #expect(refusal(body) == ImageValidationError(.truncatedImage, "JPEG: segment 0xC0 at offset 10 ends past the body"))
    }

    @Test func jpegSecondSOIIsCorrupt() {
        let body: [UInt8] = [0xFF, 0xD8, 0xFF, 0xD8, 0xFF, 0xD9]
        #expect(refusal(body) == ImageValidationError(.corruptImage, "JPEG: unexpected marker 0xD8 at offset 3"))
    }

    @Test func jpegGarbageBetweenSegmentsIsCorrupt() {
        var body = ImageBuilder.jpeg(width: 8, height: 8)
        body.insert(0x41, at: 10)
        #expect(refusal(body) == ImageValidationError(.corruptImage, "JPEG: expected a marker at offset 10"))
    }

    @Test func jpegMagicAloneIsTruncated() {
        #expect(refusal([0xFF, 0xD8, 0xFF]) == ImageValidationError(.truncatedImage, "JPEG: ends at byte 3 before EOI"))
    }

    // MARK: PNG

    @Test func syntheticPNG() throws {
        #expect(try validator.validate(ImageBuilder.png(width: 3, height: 5))
            == ImageInfo(format: .png, width: 3, height: 5, byteCount: 65))
    }

    @Test func pngWithoutIDATIsCorrupt() {
        #expect(refusal(ImageBuilder.png(width: 3, height: 5, idat: false))
            == ImageValidationError(.corruptImage, "PNG: IEND before any IDAT"))
    }

    @Test func pngZeroWidthIsCorrupt() {
        #expect(refusal(ImageBuilder.png(width: 0, height: 5))
            == ImageValidationError(.corruptImage, "PNG IHDR has a zero dimension (0x5)"))
    }

    @Test func pngSignatureAloneIsTruncated() {
        #expect(refusal(Array(ImageBuilder.png(width: 1, height: 1).prefix(20)))
            == ImageValidationError(.truncatedImage, "PNG: 20 bytes end before IHDR does"))
    }

    // MARK: GIF

    @Test func syntheticGIF() throws {
        #expect(try validator.validate(ImageBuilder.gif(width: 14, height: 25))
            == ImageInfo(format: .gif, width: 14, height: 25, byteCount: 43))
    }

    @Test func gifFrameLargerThanThePixelLimit() {
        let body = ImageBuilder.gif(width: 10, height: 10, frameWidth: 60000)
        #expect(refusal(body, ImageValidator(configuration: .init(maxPixels: 1000)))
            == ImageValidationError(.overPixelLimit, "GIF frame is 60000x10 = 600000 pixels, over the limit of 1000"))
    }

    @Test func gifWithTrailingBytes() {
        #expect(refusal(ImageBuilder.gif(width: 2, height: 2) + Array("<html>".utf8))
            == ImageValidationError(.trailingData, "GIF: 6 bytes follow the end of the image at offset 43"))
    }

    @Test func gifUnknownBlockIsCorrupt() {
        var body = ImageBuilder.gif(width: 2, height: 2, trailer: false)
        body.append(0x99)
        #expect(refusal(body) == ImageValidationError(.corruptImage, "GIF: unknown block 0x99 at offset 42"))
    }

    // MARK: WebP

    @Test func syntheticLosslessWebP() throws {
        #expect(try validator.validate(ImageBuilder.webp([ImageBuilder.vp8l(width: 3, height: 2)]))
            == ImageInfo(format: .webp, width: 3, height: 2, byteCount: 26))
    }

    @Test func syntheticExtendedWebP() throws {
        let body = ImageBuilder.webp([ImageBuilder.vp8x(width: 640, height: 480), ImageBuilder.vp8l(width: 640, height: 480)])
        #expect(try validator.validate(body) == ImageInfo(format: .webp, width: 640, height: 480, byteCount: 44))
    }

    @Test func webpWithUnknownFirstChunkIsCorrupt() {
        #expect(refusal(ImageBuilder.webp([("ALPH", [1, 2])]))
            == ImageValidationError(.corruptImage, "WebP: the first chunk is ALPH, not VP8, VP8L or VP8X"))
    }

    @Test func webpOverPixelLimit() {
        let body = ImageBuilder.webp([ImageBuilder.vp8x(width: 16_000_000, height: 16_000_000)])
        #expect(refusal(body) == ImageValidationError(
            .overPixelLimit, "WebP canvas is 16000000x16000000 = 256000000000000 pixels, over the limit of 50000000"))
    }

    // MARK: AVIF / HEIF

    @Test func syntheticAVIFUsesTheLargestIspe() throws {
        let body = ImageBuilder.heif(brands: ["avif", "mif1"], sizes: [(64, 64), (1920, 1080)])
        #expect(try validator.validate(body) == ImageInfo(format: .avif, width: 1920, height: 1080, byteCount: body.count))
    }

    @Test func heicAndHeifBrands() throws {
        #expect(try validator.validate(ImageBuilder.heif(brands: ["heic", "mif1"], sizes: [(4, 3)])).format == .heic)
        #expect(try validator.validate(ImageBuilder.heif(brands: ["mif1", "heix"], sizes: [(4, 3)])).format == .heic)
        #expect(try validator.validate(ImageBuilder.heif(brands: ["mif1"], sizes: [(4, 3)])).format == .heif)
        #expect(try validator.validate(ImageBuilder.heif(brands: ["avis"], sizes: [(4, 3)])).format.mimeType == "image/avif")
    }

    @Test func avifWithoutIspeIsCorrupt() {
        #expect(refusal(ImageBuilder.heif(brands: ["avif"], sizes: []))
            == ImageValidationError(.corruptImage, "AVIF: no ispe property in meta/iprp/ipco"))
    }

    @Test func avifCutInsideMdatIsTruncated() {
        let body = Array(ImageBuilder.heif(brands: ["avif"], sizes: [(4, 3)]).dropLast(2))
        #expect(refusal(body) == ImageValidationError(.truncatedImage, "AVIF: box mdat at offset 64 ends past the body"))
    }

    @Test func avifOverPixelLimit() {
        let body = ImageBuilder.heif(brands: ["avif"], sizes: [(10000, 10000)])
        #expect(refusal(body) == ImageValidationError(
            .overPixelLimit, "AVIF ispe is 10000x10000 = 100000000 pixels, over the limit of 50000000"))
    }

    @Test func mp4IsNotAnImage() {
        #expect(refusal(ImageBuilder.heif(brands: ["isom", "mp41"], sizes: [(4, 3)]))
            == ImageValidationError(.notAnImage, "no known image signature in the first bytes"))
    }
}
