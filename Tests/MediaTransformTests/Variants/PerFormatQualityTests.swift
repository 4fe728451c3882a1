import Testing
@testable import MediaTransform

/// Per-format quality (`"quality": {"jpeg": 80, "webp": 79, "avif": 63, "jxl": 77}`): without `q`, each format is
/// encoded at its own quality and keyed with it; a request's `q` applies to every format; a single number works as
/// before (the same keys).
@Suite struct PerFormatQualityTests {
    typealias F = VariantFixture
    static let declaration = VariantDeclaration(
        widths: F.widths, formats: [.jpeg, .webp, .avif, .png, .jxl], maxDpr: 3, quality: 80,
        qualities: [.jpeg: 80, .webp: 79, .avif: 63, .jxl: 77], avifEffort: 6)

    @Test func eachFormatHasItsQualityInTheKey() throws {
        #expect(F.outcome("w=144&fmt=webp", Self.declaration) == "w=144,fit=inside,fmt=webp,q=79")
        #expect(F.outcome("w=144&fmt=avif", Self.declaration) == "w=144,fit=inside,fmt=avif,q=63")
        #expect(F.outcome("w=144&fmt=jxl", Self.declaration) == "w=144,fit=inside,fmt=jxl,q=77")
        #expect(F.outcome("w=144&fmt=png", Self.declaration) == "w=144,fit=inside,fmt=png")
        // The format is known once the source is: the key lists every quality it may resolve to.
        #expect(F.outcome("w=144", Self.declaration) == "w=144,fit=inside,fmt=source,q=jpeg80/webp79/avif63/jxl77/other80")
        // q applies to every format.
        #expect(F.outcome("w=144&fmt=avif&q=50", Self.declaration) == "w=144,fit=inside,fmt=avif,q=50")
        #expect(F.outcome("w=144&q=50", Self.declaration) == "w=144,fit=inside,fmt=source,q=50")
        // A single number: the keys of before.
        #expect(F.outcome("w=144&fmt=webp") == "w=144,fit=inside,fmt=webp,q=80")
        #expect(F.outcome("w=144") == "w=144,fit=inside,fmt=source,q=80")
        let spec = try #require(try F.parse("w=144&fmt=auto", Self.declaration, accept: "image/avif")).spec
        #expect(spec.quality(for: .avif) == 63)
        #expect(spec.quality(for: .png) == 80)
        #expect(spec.avifEffort == 6)
        #expect(spec.normalised(format: .avif) == "w=144,fit=inside,fmt=avif,q=63")
    }

    /// The encoder is given the format's quality: a WebP at q 79 is the bytes `q=79` asks for.
    @Test func theEncoderUsesTheFormatsQuality() throws {
        let source = try Fixtures.bytes("large/hubble-1000.jpg")
        func derive(_ query: String) throws -> [UInt8] {
            let spec = try #require(try F.parse(query, Self.declaration)).spec
            return try ImageTransformer.derive(source, spec: spec, declared: Self.declaration.formats,
                                               limits: TransformLimits(), deadline: nil).bytes
        }
        #expect(try derive("w=144&fmt=webp") == derive("w=144&fmt=webp&q=79"))
        #expect(try derive("w=144&fmt=webp") != derive("w=144&fmt=webp&q=80"))
        #expect(try derive("w=144") == derive("w=144&fmt=jpeg&q=80"))
    }
}
