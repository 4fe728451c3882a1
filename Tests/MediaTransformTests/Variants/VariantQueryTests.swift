import Testing
@testable import MediaTransform

@Suite struct VariantQueryTests {
    typealias F = VariantFixture

    @Test func noVariantParameterServesTheOriginal() throws {
        for query in [nil, "", "&", "&&&", "v=3", "v=3&v=4", "&v=3&"] as [String?] {
            #expect(try F.parse(query) == nil, "\(String(describing: query))")
        }
    }

    @Test func widthAlone() throws {
        #expect(try F.parse("w=144") == ParsedVariantQuery(
            spec: VariantSpec(width: 144, quality: 80, format: .source), remainingQuery: nil, negotiated: false))
        #expect(F.outcome("w=144") == "w=144,fit=inside,fmt=source,q=80")
        for width in VariantFixture.widths {
            #expect(F.outcome("w=\(width)") == "w=\(width),fit=inside,fmt=source,q=80")
        }
    }

    @Test func dprIsFoldedIntoOutputPixels() {
        #expect(F.outcome("w=72&dpr=2") == "w=144,fit=inside,fmt=source,q=80")
        #expect(F.outcome("w=384&dpr=3") == "w=1152,fit=inside,fmt=source,q=80")
        #expect(F.outcome("dpr=3&w=96&h=96") == "w=288,h=288,fit=inside,fmt=source,q=80")
        #expect(F.outcome("w=144&dpr=1") == "w=144,fit=inside,fmt=source,q=80")
    }

    @Test func heightAndFit() {
        #expect(F.outcome("w=288&h=144&fit=cover") == "w=288,h=144,fit=cover,fmt=source,q=80")
        #expect(F.outcome("w=288&h=144&fit=inside") == "w=288,h=144,fit=inside,fmt=source,q=80")
        #expect(F.outcome("w=288&h=144") == "w=288,h=144,fit=inside,fmt=source,q=80")
        // cover without a height is inside
        #expect(F.outcome("w=288&fit=cover") == "w=288,fit=inside,fmt=source,q=80")
        let heights = VariantDeclaration(widths: [144, 288], heights: [96, 192], formats: [.jpeg], maxDpr: 2)
        #expect(F.outcome("w=144&h=96&dpr=2", heights) == "w=288,h=192,fit=inside,fmt=source,q=80")
        #expect(F.outcome("w=288&h=192", heights) == "w=288,h=192,fit=inside,fmt=source,q=80")
    }

    @Test func quality() {
        #expect(F.outcome("w=144&q=55") == "w=144,fit=inside,fmt=source,q=55")
        #expect(F.outcome("w=144&q=1") == "w=144,fit=inside,fmt=source,q=1")
        #expect(F.outcome("w=144&q=100") == "w=144,fit=inside,fmt=source,q=100")
        let q65 = VariantDeclaration(widths: [144], formats: [.jpeg], quality: 65)
        #expect(F.outcome("w=144", q65) == "w=144,fit=inside,fmt=source,q=65")
        // The tier's quality is clamped to 1...100.
        #expect(F.outcome("w=144", VariantDeclaration(widths: [144], formats: [], quality: 0)) == "w=144,fit=inside,fmt=source,q=1")
        #expect(F.outcome("w=144", VariantDeclaration(widths: [144], formats: [], quality: 500)) == "w=144,fit=inside,fmt=source,q=100")
    }

    @Test func parameterOrderDoesNotMatter() throws {
        let a = try F.parse("w=144&h=144&fit=cover&dpr=2&q=70&fmt=webp")
        let b = try F.parse("fmt=webp&q=70&dpr=2&fit=cover&h=144&w=144")
        #expect(a == b)
        #expect(a?.spec.keyText == "w=288,h=288,fit=cover,fmt=webp,q=70")
    }

    @Test func passThroughItemsAreKeptInOrderAndSpelling() throws {
        #expect(try F.parse("v=3&w=144")?.remainingQuery == "v=3")
        #expect(try F.parse("v=%33&w=144&token=a+b", passThrough: ["token", "v"])?.remainingQuery == "v=%33&token=a+b")
        #expect(try F.parse("token=x&w=144&v=3", passThrough: ["v", "token"])?.remainingQuery == "token=x&v=3")
        #expect(try F.parse("v=1&w=144&v=2")?.remainingQuery == "v=1&v=2")
        #expect(try F.parse("w=144&flag", passThrough: ["flag"])?.remainingQuery == "flag")
        #expect(try F.parse("w=144&v=", passThrough: ["v"])?.remainingQuery == "v=")
        #expect(try F.parse("w=144")?.remainingQuery == nil)
    }

    @Test func emptyItemsAreDropped() throws {
        let parsed = try F.parse("&w=144&&v=3&")
        #expect(parsed?.spec.keyText == "w=144,fit=inside,fmt=source,q=80")
        #expect(parsed?.remainingQuery == "v=3")
    }

    @Test func aVariantNameInPassThroughStaysAVariantParameter() throws {
        let parsed = try F.parse("w=144&v=1", passThrough: ["w", "v"])
        #expect(parsed?.spec.width == 144)
        #expect(parsed?.remainingQuery == "v=1")
    }

    @Test func limitsAreInclusive() throws {
        // 16 items: w and 15 pass-through.
        let sixteen = (["w=144"] + Array(repeating: "v=1", count: 15)).joined(separator: "&")
        #expect(try F.parse(sixteen)?.remainingQuery == Array(repeating: "v=1", count: 15).joined(separator: "&"))
        // 2048 bytes.
        let long = "w=144&v=" + String(repeating: "a", count: 2048 - 8)
        #expect(long.utf8.count == 2048)
        #expect(try F.parse(long)?.spec.width == 144)
    }

    @Test func hugeNumbersNeverOverflow() {
        let huge = VariantDeclaration(widths: [Int.max], formats: [.jpeg], maxDpr: Int.max)
        // The ladder caps an overflowing w × dpr at the largest width.
        #expect(F.outcome("w=999999999&dpr=999999999", huge) == "w=9223372036854775807,fit=inside,fmt=source,q=80")
        let side = 999_999_999 * 999_999_999
        let tall = VariantDeclaration(widths: [side], formats: [.jpeg], maxDpr: Int.max)
        #expect(tall.maxOutputPixels == Int.max)
        #expect(F.outcome("w=999999999&h=999999999&dpr=999999999", tall) == "error: w=999999999&h=999999999&dpr=999999999 is not allowed: (w × dpr) × (h × dpr) must be at most 9223372036854775807")
        #expect(F.outcome("w=1&dpr=\(Int.max / 2)", tall) == "error: dpr=4611686018427387903 is not allowed: dpr must be an integer from 1 to 9223372036854775807")
    }
}
