import Testing
@testable import MediaTransform

extension LibvipsTests {
    /// Every file in hostile/ (and a few formats the corpus lacks) is refused with its code before
    /// anything is served; the one that is a valid image is neutralised by the re-encode.
    @Suite struct HostileInputTests {
        static let limits = TransformLimits(maxSourcePixels: 50_000_000, maxOutputPixels: 16_777_216)
        static let spec = VariantSpec(width: 144, quality: 80, format: .source)

        static func refusal(_ bytes: [UInt8]) -> TransformError? {
            do {
                _ = try ImageTransformer.derive(bytes, spec: spec, declared: OutputFormat.allCases, limits: limits,
                                                deadline: nil)
                return nil
            } catch {
                return error
            }
        }

        @Test(arguments: [
            ("bomb-12000x12000-valid.png", TransformError.Code.overPixelLimit),
            ("bomb-60000x60000.png", .overPixelLimit),
            ("truncated.jpg", .undecodable),
            ("bad-crc.png", .undecodable),
            ("script.svg", .unsupportedFormat),
            ("html-named.jpg", .unsupportedFormat),
            ("empty.jpg", .unsupportedFormat),
        ])
        func refused(file: String, code: TransformError.Code) throws {
            let error = try #require(Self.refusal(try Fixtures.bytes("hostile/\(file)")), "\(file) was transformed")
            #expect(error.code == code, "\(error)")
        }

        @Test func everyHostileFileIsCovered() throws {
            #expect(try Fixtures.files(in: "hostile") == [
                "bad-crc.png", "bomb-12000x12000-valid.png", "bomb-60000x60000.png", "empty.jpg", "html-named.jpg",
                "jpeg-with-html-tail.jpg", "script.svg", "truncated.jpg",
            ])
        }

        /// A valid JPEG with an HTML tail: served only as a fresh encode, which carries no tail.
        @Test func polyglotTailIsDropped() throws {
            let source = try Fixtures.bytes("hostile/jpeg-with-html-tail.jpg")
            #expect(Bytes.contains(source, "<script"))
            let out = try ImageTransformer.derive(source, spec: Self.spec, declared: [.jpeg], limits: Self.limits,
                                                  deadline: nil)
            #expect((out.format, out.width, out.height) == (.jpeg, 96, 96))
            #expect(!Bytes.contains(out.bytes, "<script"))
            #expect(!Bytes.contains(out.bytes, "<html"))
            #expect(Array(out.bytes.suffix(2)) == [0xFF, 0xD9])
        }

        /// The bombs are refused on their header: the limit is the tier's, not a fixed one.
        @Test func theSourceLimitIsTheTiers() throws {
            let bytes = try Fixtures.bytes("hostile/bomb-12000x12000-valid.png")
            #expect(ImageTransformer.probe(bytes) == ImageProbe(format: .png, width: 12_000, height: 12_000, pages: 1,
                                                                hasAlpha: false))
            let small = TransformLimits(maxSourcePixels: 4_000 * 4_000 - 1, maxOutputPixels: 16_777_216)
            let error = #expect(throws: TransformError.self) {
                try ImageTransformer.derive(try Fixtures.bytes("large/astronaut-4000.jpg"), spec: Self.spec,
                                            declared: [.jpeg], limits: small, deadline: nil)
            }
            #expect(error?.code == .overPixelLimit)
            #expect(error?.detail == "source 4000×4000 exceeds 15999999 pixels")
        }

        @Test func heicIsRefusedThoughThisLibheifDecodesIt() {
            #expect(Self.refusal(EmbeddedFixtures.heic)?.code == .unsupportedFormat)
            #expect(ImageTransformer.probe(EmbeddedFixtures.heic) == nil)
        }

        @Test func hevcUnderAnAVIFBrandIsRefused() {
            #expect(Self.refusal(EmbeddedFixtures.hevcBrandedAVIF)?.code == .unsupportedFormat)
        }

        static let otherFormats: [(String, [UInt8])] = [
            ("TIFF", Array("II*\u{0}".utf8) + [UInt8](repeating: 0, count: 60)),
            ("PDF", Array("%PDF-1.7\n1 0 obj\n".utf8)),
            ("BMP", Array("BM".utf8) + [UInt8](repeating: 0, count: 60)),
            ("SVG without a prolog", Array("<svg xmlns=\"http://www.w3.org/2000/svg\"/>".utf8)),
        ]

        @Test func otherFormatsAreRefused() {
            for (name, bytes) in Self.otherFormats {
                #expect(Self.refusal(bytes)?.code == .unsupportedFormat, "\(name)")
            }
        }

        /// A JPEG cut after its SOI: the magic passes, the header does not parse.
        @Test func jpegMagicAloneIsUndecodable() {
            #expect(Self.refusal([0xFF, 0xD8, 0xFF, 0xE0])?.code == .undecodable)
        }

        @Test func corruptedPixelDataIsUndecodable() throws {
            var bytes = try Fixtures.bytes("catalog/chelsea-5d40df37.jpg")
            bytes.removeLast(bytes.count / 2)
            #expect(Self.refusal(bytes)?.code == .undecodable)
        }
    }
}
