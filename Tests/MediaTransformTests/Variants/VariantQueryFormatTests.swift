import Testing
@testable import MediaTransform

@Suite struct VariantQueryFormatTests {
    typealias F = VariantFixture
    static let chrome = "image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8"

    @Test func noFormatIsTheSource() throws {
        let parsed = try F.parse("w=144", accept: Self.chrome)
        #expect(parsed?.spec.format == .source)
        #expect(parsed?.negotiated == false)
    }

    @Test func declaredFormats() throws {
        for format in F.declaration.formats {
            let parsed = try F.parse("w=144&fmt=\(format.rawValue)", accept: Self.chrome)
            #expect(parsed?.spec.format == .format(format))
            #expect(parsed?.negotiated == false)
        }
        #expect(F.outcome("w=576&fmt=avif") == "w=576,fit=inside,fmt=avif,q=80")
        #expect(F.outcome("w=288&dpr=2&fmt=avif") == "w=576,fit=inside,fmt=avif,q=80")
    }

    @Test func avifWithoutEncoderBecomesWebP() throws {
        let parsed = try F.parse("w=1152&fmt=avif", avifAvailable: false)
        #expect(parsed?.spec.format == .format(.webp))
        #expect(parsed?.negotiated == false)
        #expect(F.outcome("w=144&fmt=avif", avifAvailable: false) == "w=144,fit=inside,fmt=webp,q=80")
    }

    @Test func autoNegotiates() throws {
        let small = try F.parse("w=144&fmt=auto", accept: Self.chrome)
        #expect(small == ParsedVariantQuery(spec: VariantSpec(width: 144, quality: 80, format: .format(.avif)),
                                            remainingQuery: nil, negotiated: true))
        #expect(try F.parse("w=1152&fmt=auto", accept: Self.chrome)?.spec.format == .format(.webp))
        #expect(try F.parse("w=384&dpr=3&fmt=auto", accept: Self.chrome)?.spec.format == .format(.webp))
        // From 576 px AVIF takes more than 3× JPEG's time (FormatRanking): WebP has the fewest bytes then.
        #expect(try F.parse("w=192&dpr=3&fmt=auto", accept: Self.chrome)?.spec.format == .format(.webp))
        #expect(try F.parse("w=96&dpr=3&fmt=auto", accept: Self.chrome)?.spec.format == .format(.avif))
        // Without AVIF, JPEG has fewer bytes than WebP at 144 px for an opaque still; WebP for alpha or frames.
        let legacyOrWebP = try F.parse("w=144&fmt=auto", accept: Self.chrome, avifAvailable: false)?.spec
        #expect(legacyOrWebP?.format == .legacyOr(.webp))
        #expect(legacyOrWebP?.keyText == "w=144,fit=inside,fmt=legacy-webp,q=80")
        let none = try F.parse("w=144&fmt=auto", accept: nil)
        #expect(none?.spec.format == .legacy)
        #expect(none?.negotiated == true)
        #expect(none?.spec.keyText == "w=144,fit=inside,fmt=legacy,q=80")
    }

    @Test func autoOnlyPicksDeclaredFormats() throws {
        let jpegOnly = VariantDeclaration(widths: [144], formats: [.jpeg])
        #expect(try F.parse("w=144&fmt=auto", jpegOnly, accept: Self.chrome)?.spec.format == .legacy)
        let avifOnly = VariantDeclaration(widths: [144, 1152], formats: [.avif, .jpeg])
        #expect(try F.parse("w=144&fmt=auto", avifOnly, accept: Self.chrome)?.spec.format == .format(.avif))
        #expect(try F.parse("w=1152&fmt=auto", avifOnly, accept: Self.chrome)?.spec.format == .legacy)
        #expect(try F.parse("w=144&fmt=auto", avifOnly, accept: Self.chrome, avifAvailable: false)?.spec.format == .legacy)
    }

    @Test func acceptIsOnlyReadForAuto() throws {
        #expect(try F.parse("w=144&fmt=jpeg", accept: "image/webp")?.spec.format == .format(.jpeg))
        #expect(try F.parse("w=144", accept: "image/webp")?.spec.format == .source)
    }

    @Test func theKeyNeverHoldsTheAcceptValue() throws {
        let a = try F.parse("w=144&fmt=auto", accept: Self.chrome)
        let b = try F.parse("w=144&fmt=auto", accept: "image/avif")
        #expect(a == b)
        #expect(a?.spec.keyText == "w=144,fit=inside,fmt=avif,q=80")
    }
}
