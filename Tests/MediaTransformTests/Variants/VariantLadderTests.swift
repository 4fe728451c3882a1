import Testing
@testable import MediaTransform

/// The srcset ladder (docs/variants.md, "Responsive images"): with `dpr`, or with client hints on a declaration that
/// reads them, the output width is the smallest declared width at or above the target, capped at the largest; the key
/// holds that width, so the variants per source stay bounded.
@Suite struct VariantLadderTests {
    typealias F = VariantFixture
    static let hinted = VariantDeclaration(widths: F.widths, formats: [.jpeg, .webp, .avif, .png], maxDpr: 3, quality: 80,
                                           clientHints: true)

    @Test func theLadderPicksTheNextDeclaredWidth() {
        #expect(VariantDeclaration.ladder(432, in: F.widths) == 576)
        #expect(VariantDeclaration.ladder(576, in: F.widths) == 576)
        #expect(VariantDeclaration.ladder(1, in: F.widths) == 72)
        #expect(VariantDeclaration.ladder(5000, in: F.widths) == 1152)
        #expect(VariantDeclaration.ladder(5, in: []) == nil)
    }

    /// Every candidate of `srcset="a.jpg?w=144&dpr=1 1x, …&dpr=2 2x, …&dpr=3 3x"` is served.
    @Test func everyDensityOfAsrcsetIsServed() {
        #expect(F.outcome("w=144&dpr=1") == "w=144,fit=inside,fmt=source,q=80")
        #expect(F.outcome("w=144&dpr=2") == "w=288,fit=inside,fmt=source,q=80")
        #expect(F.outcome("w=144&dpr=3") == "w=576,fit=inside,fmt=source,q=80")
        #expect(F.outcome("w=100&dpr=2") == "w=288,fit=inside,fmt=source,q=80")
        #expect(F.outcome("dpr=2&w=100&fmt=webp") == "w=288,fit=inside,fmt=webp,q=80")
        #expect(F.outcome("w=1152&dpr=2") == "w=1152,fit=inside,fmt=source,q=80")
        // A height scales as the width did, then takes its own step.
        #expect(F.outcome("w=144&h=96&fit=cover&dpr=3") == "w=576,h=576,fit=cover,fmt=source,q=80")
        let boxes = VariantDeclaration(widths: [144, 288, 576], heights: [96, 192, 384], formats: [.jpeg], maxDpr: 3)
        #expect(F.outcome("w=144&h=96&fit=cover&dpr=2", boxes) == "w=288,h=192,fit=cover,fmt=source,q=80")
        #expect(F.outcome("w=144&h=96&fit=cover&dpr=3", boxes) == "w=576,h=384,fit=cover,fmt=source,q=80")
        // dpr stays bounded by maxDpr, and explicit AVIF by maxAVIFWidth, after the ladder.
        #expect(F.outcome("w=144&dpr=4") == "error: dpr=4 is not allowed: dpr must be an integer from 1 to 3")
        #expect(F.outcome("w=288&dpr=3&fmt=avif") == "error: w=288&dpr=3&fmt=avif is not allowed: with fmt=avif, w × dpr must be at most 576")
    }

    @Test func clientHintsChooseTheStepWithoutDpr() throws {
        func parse(_ query: String, dpr: String? = nil, width: String? = nil) throws -> ParsedVariantQuery? {
            try F.parse(query, Self.hinted, hints: ClientHints(dpr: dpr, width: width))
        }
        // Sec-CH-Width (device pixels) decides alone.
        let byWidth = try #require(try parse("w=144", dpr: "3", width: "300"))
        #expect(byWidth.spec.keyText == "w=576,fit=inside,fmt=source,q=80")
        #expect(byWidth.hintFields == ["Sec-CH-Width"])
        // Else w × Sec-CH-DPR, clamped to maxDpr and rounded up.
        let byDPR = try #require(try parse("w=144", dpr: "2.625"))
        #expect(byDPR.spec.width == 576)
        #expect(byDPR.hintFields == ["Sec-CH-Width", "Sec-CH-DPR"])
        #expect(try parse("w=144", dpr: "2")?.spec.width == 288)
        #expect(try parse("w=144", dpr: "9")?.spec.width == 576)
        #expect(try parse("w=144", dpr: "0.5")?.spec.width == 144)
        // No usable hint: w itself, on the ladder (a hint is advice: a malformed one is ignored).
        for (dpr, width) in [(nil, nil), ("two", nil), ("-1", "0"), ("1.2345", "12.5"), (nil, "-300")] as [(String?, String?)] {
            let parsed = try #require(try parse("w=100", dpr: dpr, width: width))
            #expect(parsed.spec.width == 144, "\(String(describing: dpr)) \(String(describing: width))")
            #expect(parsed.hintFields == ["Sec-CH-Width", "Sec-CH-DPR"])
        }
        // dpr in the query wins: no hint is read, nothing to vary on.
        let explicit = try #require(try parse("w=144&dpr=1", dpr: "3", width: "1000"))
        #expect(explicit.spec.width == 144)
        #expect(explicit.hintFields == [])
        // A declaration without clientHints reads none.
        #expect(try F.parse("w=144", hints: ClientHints(dpr: "3", width: "1000"))?.hintFields == [])
        #expect(F.outcome("w=100") == "error: w=100 is not allowed: w × dpr must be one of 72, 144, 288, 576, 1152")
    }

    @Test func hintValuesAreRFC8941Numbers() {
        #expect(ClientHints(dpr: "2", width: "300") == ClientHints(dpr: " 2 ", width: "300\t"))
        #expect(ClientHints(dpr: "2.625", width: nil).dpr == 2.625)
        for bad in ["", "2.", ".5", "1e2", "0", "0.0", "+2", "2.1234", "1000", "NaN", "inf"] {
            #expect(ClientHints(dpr: bad, width: nil).dpr == nil, "\(bad)")
        }
        for bad in ["", "0", "-3", "1.5", "1000000000", "3e2", "+3"] {
            #expect(ClientHints(dpr: nil, width: bad).width == nil, "\(bad)")
        }
        #expect(ClientHints(dpr: nil, width: "999999999").width == 999_999_999)
    }
}
