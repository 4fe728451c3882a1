import Testing
@testable import MediaTransform

extension LibvipsTests {
    /// The WebP metadata chunk filter that makes up for libvips 8.14.1's webpsave ignoring `strip`.
    @Suite struct WebPContainerTests {
        static func chunk(_ type: String, _ payload: [UInt8]) -> [UInt8] {
            let size = UInt32(payload.count)
            return Array(type.utf8) + (0..<4).map { UInt8((size >> (8 * UInt32($0))) & 0xFF) } + payload
                + (payload.count % 2 == 1 ? [0] : [])
        }

        static func riff(_ chunks: [[UInt8]]) -> [UInt8] {
            let body = Array("WEBP".utf8) + chunks.joined()
            let size = UInt32(body.count)
            return Array("RIFF".utf8) + (0..<4).map { UInt8((size >> (8 * UInt32($0))) & 0xFF) } + body
        }

        @Test func removesExifXmpAndICCAndTheirFlags() {
            // VP8X flags: ICC 0x20 | alpha 0x10 | EXIF 0x08 | XMP 0x04
            let vp8x = Self.chunk("VP8X", [0x3C, 0, 0, 0, 9, 0, 0, 9, 0, 0])
            let input = Self.riff([vp8x, Self.chunk("ICCP", [1, 2, 3]), Self.chunk("ALPH", [7, 7]),
                                   Self.chunk("VP8 ", [5, 5, 5, 5]), Self.chunk("EXIF", Array("Exif\0\0MM".utf8)),
                                   Self.chunk("XMP ", Array("<x:xmpmeta/>".utf8))])
            let expected = Self.riff([Self.chunk("VP8X", [0x10, 0, 0, 0, 9, 0, 0, 9, 0, 0]), Self.chunk("ALPH", [7, 7]),
                                      Self.chunk("VP8 ", [5, 5, 5, 5])])
            #expect(WebPContainer.removingMetadata(input) == expected)
        }

        @Test func leavesAPlainWebPAsItIs() {
            let input = Self.riff([Self.chunk("VP8L", [1, 2, 3, 4, 5])])
            #expect(WebPContainer.removingMetadata(input) == input)
        }

        @Test func refusesAChunkPastTheEnd() {
            var input = Self.riff([Self.chunk("VP8 ", [1, 2, 3, 4])])
            input.removeLast(2)
            #expect(WebPContainer.removingMetadata(input) == nil)
            #expect(WebPContainer.removingMetadata(Array("RIFF\0\0\0\0WEBX".utf8)) == nil)
        }

        /// webpsave here rebuilds an EXIF chunk even for a source with none (coffee.webp has no
        /// metadata); the output has none.
        @Test func webpOutputHasNoExifChunk() throws {
            let out = try ImageTransformer.derive(
                try Fixtures.bytes("catalog/coffee.webp"), spec: VariantSpec(width: 64, quality: 80, format: .format(.webp)),
                declared: [.webp], limits: TransformLimits(), deadline: nil)
            #expect(!Bytes.contains(out.bytes, "EXIF"))
            #expect(ImageTransformer.probe(out.bytes) == ImageProbe(format: .webp, width: 64, height: 64, pages: 1,
                                                                    hasAlpha: false))
        }
    }
}
