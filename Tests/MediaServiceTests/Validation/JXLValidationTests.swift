import MediaCore
@testable import MediaService
import MediaTestSupport
import Testing

/// JPEG XL (ISO/IEC 18181) in the sniffer and the validator: a bare codestream and the container, the `SizeHeader`'s
/// dimensions (small, large and fixed-ratio forms), and refusals with exact texts.
@Suite struct JXLValidationTests {
    static func codestream() throws -> [UInt8] { try Fixtures.bytes("../made/hubble-250.jxl") }

    /// `bytes` in the container: the signature box, `ftyp` (`jxl `), then a `jxlc` box, or two `jxlp` parts.
    static func container(_ codestream: [UInt8], parts: Bool = false) -> [UInt8] {
        func box(_ type: String, _ payload: [UInt8]) -> [UInt8] {
            let size = UInt32(8 + payload.count)
            return [UInt8(size >> 24), UInt8(size >> 16 & 0xFF), UInt8(size >> 8 & 0xFF), UInt8(size & 0xFF)]
                + Array(type.utf8) + payload
        }
        let head = ImageSniffer.jxlContainerSignature + box("ftyp", Array("jxl ".utf8) + [0, 0, 0, 0] + Array("jxl ".utf8))
        guard parts else { return head + box("jxlc", codestream) }
        let half = codestream.count / 2
        return head + box("jxlp", [0, 0, 0, 0] + codestream[..<half]) + box("jxlp", [0x80, 0, 0, 1] + codestream[half...])
    }

    @Test func bothFormsAreSniffedAndMeasured() throws {
        let bare = try Self.codestream()
        #expect(Array(bare.prefix(2)) == [0xFF, 0x0A])
        #expect(ImageSniffer.sniff(bare) == .jxl)
        #expect(ImageFormat.jxl.mimeType == "image/jxl")
        #expect(try ImageValidator().validate(bare) == ImageInfo(format: .jxl, width: 250, height: 218, byteCount: bare.count))
        for wrapped in [Self.container(bare), Self.container(bare, parts: true)] {
            #expect(ImageSniffer.sniff(wrapped) == .jxl)
            #expect(try ImageValidator().validate(wrapped).width == 250)
            #expect(try ImageValidator().validate(wrapped).height == 218)
        }
    }

    /// The `SizeHeader`'s forms, bit by bit (least significant first): small (multiples of 8), U32 dimensions and
    /// the fixed ratios.
    @Test func sizeHeaderForms() throws {
        func size(_ bits: [Int]) throws -> (Int, Int) {
            var bytes = [UInt8](repeating: 0, count: (bits.count + 7) / 8 + 1)
            for (index, bit) in bits.enumerated() where bit == 1 { bytes[index / 8] |= UInt8(1 << (index % 8)) }
            let info = try ImageValidator().validate([0xFF, 0x0A] + bytes)
            return (info.width, info.height)
        }
        func value(_ number: Int, _ count: Int) -> [Int] { (0..<count).map { number >> $0 & 1 } }
        // small: height (3+1)·8 = 32, ratio 0, width (1+1)·8 = 16.
        #expect(try size([1] + value(3, 5) + value(0, 3) + value(1, 5)) == (16, 32))
        // small: height 64, ratio 5 (16:9): width 113.
        #expect(try size([1] + value(7, 5) + value(5, 3)) == (113, 64))
        // U32: height selector 2 (18 bits) 59999+1, ratio 0, width selector 0 (9 bits) 511+1.
        #expect(try size([0] + value(2, 2) + value(59_999, 18) + value(0, 3) + value(0, 2) + value(511, 9)) == (512, 60_000))
        // U32 height 1000, ratio 7 (2:1): width 2000.
        #expect(try size([0] + value(1, 2) + value(999, 13) + value(7, 3)) == (2000, 1000))
    }

    @Test func refusalsNameTheProblem() throws {
        let bare = try Self.codestream()
        #expect(throws: ImageValidationError(.truncatedImage, "JXL: the SizeHeader is cut short")) {
            try ImageValidator().validate([0xFF, 0x0A, 0x00])
        }
        #expect(throws: ImageValidationError(.overPixelLimit, "JXL SizeHeader is 250x218 = 54500 pixels, over the limit of 50000")) {
            try ImageValidator(configuration: .init(maxPixels: 50_000)).validate(bare)
        }
        var noCodestream = Self.container(bare)
        noCodestream.replaceSubrange(noCodestream.count - bare.count - 4..<noCodestream.count - bare.count, with: Array("jbrd".utf8))
        #expect(throws: ImageValidationError(.corruptImage, "JXL: no jxlc or jxlp box holds a codestream")) {
            try ImageValidator().validate(noCodestream)
        }
        let cut = Array(Self.container(bare).dropLast(10))
        #expect(throws: ImageValidationError.self) { try ImageValidator().validate(cut) }
    }
}
