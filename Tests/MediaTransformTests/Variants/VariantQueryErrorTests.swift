import Testing
@testable import MediaTransform

/// Every refusal's exact text (`<subject> is not allowed: <rule>`).
@Suite struct VariantQueryErrorTests {
    typealias F = VariantFixture
    static let widthRule = "w × dpr must be one of 72, 144, 288, 576, 1152"
    static let malformedWidth = "w must be an integer from 1 to 999999999 in plain digits (no sign, leading zero, fraction or exponent)"

    @Test func errorShape() {
        #expect(throws: VariantError(detail: "w=145 is not allowed: \(Self.widthRule)")) { try F.parse("w=145") }
        let error = VariantError(detail: "x")
        #expect(error.code == "variant-not-allowed")
        #expect(VariantError(detail: "w=145 is not allowed: \(Self.widthRule)").description
            == "variant-not-allowed: w=145 is not allowed: w × dpr must be one of 72, 144, 288, 576, 1152")
    }

    @Test func widthNotDeclared() {
        #expect(F.outcome("w=145") == "error: w=145 is not allowed: \(Self.widthRule)")
        // With dpr the ladder takes any w (VariantLadderTests); without it, w must be declared.
        #expect(F.outcome("w=100") == "error: w=100 is not allowed: \(Self.widthRule)")
        #expect(F.outcome("w=144", VariantDeclaration(widths: [], formats: [])) == "error: w=144 is not allowed: w × dpr must be one of (none declared)")
    }

    @Test func malformedWidths() {
        for value in ["w=abc", "w=", "w", "w=0", "w=-144", "w=+144", "w=0144", "w=144.0", "w=1e3",
                      "w=%31%34%34", "w=144%20", "w=1440000000", "w=0x90"] {
            #expect(F.outcome(value) == "error: \(value) is not allowed: \(Self.malformedWidth)")
        }
        // A leading zero is a malformed number, not an undeclared width (w=200 would be the latter).
        #expect(F.outcome("w=0200") == "error: w=0200 is not allowed: \(Self.malformedWidth)")
        #expect(F.outcome("w=200") == "error: w=200 is not allowed: \(Self.widthRule)")
    }

    @Test func heights() {
        #expect(F.outcome("w=144&h=100") == "error: h=100 is not allowed: h × dpr must be one of 72, 144, 288, 576, 1152")
        #expect(F.outcome("w=144&h=0") == "error: h=0 is not allowed: h must be an integer from 1 to 999999999 in plain digits (no sign, leading zero, fraction or exponent)")
        #expect(F.outcome("w=144&h=0144") == "error: h=0144 is not allowed: h must be an integer from 1 to 999999999 in plain digits (no sign, leading zero, fraction or exponent)")
        #expect(F.outcome("h=100&w=72") == "error: h=100 is not allowed: h × dpr must be one of 72, 144, 288, 576, 1152")
        let declared = VariantDeclaration(widths: [144, 288], heights: [96, 192], formats: [.jpeg])
        #expect(F.outcome("w=144&h=144", declared) == "error: h=144 is not allowed: h × dpr must be one of 96, 192")
    }

    @Test func outputPixels() {
        let capped = VariantDeclaration(widths: VariantFixture.widths, formats: [.jpeg], maxDpr: 2, maxOutputPixels: 100_000)
        #expect(F.outcome("w=576&h=288", capped) == "error: w=576&h=288 is not allowed: (w × dpr) × (h × dpr) must be at most 100000")
        #expect(F.outcome("h=144&w=288&dpr=2", capped) == "error: h=144&w=288&dpr=2 is not allowed: (w × dpr) × (h × dpr) must be at most 100000")
        #expect(F.outcome("w=576&h=288&fmt=jpeg", capped) == "error: w=576&h=288 is not allowed: (w × dpr) × (h × dpr) must be at most 100000")
        // Exactly at the limit, and without a height (no pixel limit: the aspect ratio decides).
        #expect(F.outcome("w=288&h=288", VariantDeclaration(widths: [288], formats: [], maxOutputPixels: 82_944)) == "w=288,h=288,fit=inside,fmt=source,q=80")
        #expect(F.outcome("w=1152", capped) == "w=1152,fit=inside,fmt=source,q=80")
    }

    @Test func widthMissing() {
        let rule = "a variant needs w, with w × dpr one of 72, 144, 288, 576, 1152"
        #expect(F.outcome("h=144") == "error: h=144 is not allowed: \(rule)")
        #expect(F.outcome("fmt=webp") == "error: fmt=webp is not allowed: \(rule)")
        #expect(F.outcome("v=3&fmt=webp&q=70") == "error: fmt=webp&q=70 is not allowed: \(rule)")
        #expect(F.outcome("dpr=2&fit=cover") == "error: dpr=2&fit=cover is not allowed: \(rule)")
    }

    @Test func unknownParameters() {
        let rule = "a parameter must be one of w, h, fit, dpr, q, fmt, gravity, profile, info, v"
        #expect(F.outcome("w=144&foo=1") == "error: foo=1 is not allowed: \(rule)")
        #expect(F.outcome("foo") == "error: foo is not allowed: \(rule)")
        #expect(F.outcome("=144") == "error: =144 is not allowed: \(rule)")
        #expect(F.outcome("W=144") == "error: W=144 is not allowed: \(rule)")
        #expect(F.outcome("%77=144") == "error: %77=144 is not allowed: \(rule)")
        #expect(F.outcome("width=144") == "error: width=144 is not allowed: \(rule)")
        #expect(F.outcome("w=144", passThrough: []) == "w=144,fit=inside,fmt=source,q=80")
        #expect(F.outcome("v=3", passThrough: []) == "error: v=3 is not allowed: a parameter must be one of w, h, fit, dpr, q, fmt, gravity, profile, info")
        #expect(F.outcome("x=1", passThrough: ["v", "token", "v", "w"]) == "error: x=1 is not allowed: a parameter must be one of w, h, fit, dpr, q, fmt, gravity, profile, info, v, token")
    }

    @Test func repeatedParameters() {
        #expect(F.outcome("w=144&w=288") == "error: w=144&w=288 is not allowed: w must appear at most once")
        #expect(F.outcome("w=144&q=70&q=70") == "error: q=70&q=70 is not allowed: q must appear at most once")
        #expect(F.outcome("fmt=webp&w=144&fmt") == "error: fmt=webp&fmt is not allowed: fmt must appear at most once")
    }

    @Test func dpr() {
        let rule = "dpr must be an integer from 1 to 3"
        for value in ["dpr=4", "dpr=0", "dpr=1.5", "dpr=02", "dpr=2.0", "dpr=+2", "dpr=-1", "dpr=", "dpr", "dpr=two", "dpr=%32"] {
            #expect(F.outcome("w=72&\(value)") == "error: \(value) is not allowed: \(rule)")
        }
        let one = VariantDeclaration(widths: [144], formats: [.jpeg])
        #expect(F.outcome("w=144&dpr=2", one) == "error: dpr=2 is not allowed: dpr must be 1")
        #expect(F.outcome("w=144&dpr=1", one) == "w=144,fit=inside,fmt=source,q=80")
    }

    @Test func quality() {
        let rule = "q must be an integer from 1 to 100"
        for value in ["q=0", "q=101", "q=080", "q=", "q", "q=80.5", "q=high", "q=-1"] {
            #expect(F.outcome("w=144&\(value)") == "error: \(value) is not allowed: \(rule)")
        }
    }

    @Test func fit() {
        for value in ["fit=fill", "fit=Cover", "fit=", "fit", "fit=contain", "fit=inside%20"] {
            #expect(F.outcome("w=144&h=144&\(value)") == "error: \(value) is not allowed: fit must be inside or cover")
        }
    }

    @Test func formats() {
        let rule = "fmt must be one of jpeg, webp, avif, png, auto"
        for value in ["fmt=gif", "fmt=WEBP", "fmt=source", "fmt=legacy", "fmt=", "fmt", "fmt=jpg", "fmt=Auto"] {
            #expect(F.outcome("w=144&\(value)") == "error: \(value) is not allowed: \(rule)")
        }
        let jpegPNG = VariantDeclaration(widths: [144], formats: [.png, .jpeg])
        #expect(F.outcome("w=144&fmt=webp", jpegPNG) == "error: fmt=webp is not allowed: fmt must be one of png, jpeg, auto")
        let none = VariantDeclaration(widths: [144], formats: [])
        #expect(F.outcome("w=144&fmt=jpeg", none) == "error: fmt=jpeg is not allowed: fmt must be one of auto")
    }

    @Test func avifWithoutEncoder() {
        let noWebP = VariantDeclaration(widths: [144], formats: [.jpeg, .avif])
        #expect(F.outcome("w=144&fmt=avif", noWebP, avifAvailable: false)
            == "error: fmt=avif is not allowed: fmt must be one of jpeg, auto (AVIF encoding is unavailable)")
        #expect(F.outcome("w=144&fmt=gif", noWebP, avifAvailable: false)
            == "error: fmt=gif is not allowed: fmt must be one of jpeg, auto (AVIF encoding is unavailable)")
        // With WebP declared, avif stands for webp and stays requestable.
        #expect(F.outcome("w=144&fmt=gif", avifAvailable: false) == "error: fmt=gif is not allowed: fmt must be one of jpeg, webp, avif, png, auto")
    }

    @Test func avifAboveItsWidthLimit() {
        #expect(F.outcome("w=1152&fmt=avif") == "error: w=1152&fmt=avif is not allowed: with fmt=avif, w × dpr must be at most 576")
        #expect(F.outcome("fmt=avif&w=384&dpr=3") == "error: fmt=avif&w=384&dpr=3 is not allowed: with fmt=avif, w × dpr must be at most 576")
        let wide = VariantDeclaration(widths: [1152], formats: [.avif], maxAVIFWidth: 1000)
        #expect(F.outcome("w=1152&fmt=avif", wide) == "error: w=1152&fmt=avif is not allowed: with fmt=avif, w × dpr must be at most 1000")
    }

    @Test func firstProblemInQueryOrder() {
        #expect(F.outcome("foo=1&w=145") == "error: foo=1 is not allowed: a parameter must be one of w, h, fit, dpr, q, fmt, gravity, profile, info, v")
        // w=145 is well-formed; whether it is declared is checked once every item is read.
        #expect(F.outcome("w=145&foo=1") == "error: foo=1 is not allowed: a parameter must be one of w, h, fit, dpr, q, fmt, gravity, profile, info, v")
        #expect(F.outcome("q=0&fit=fill&w=144") == "error: q=0 is not allowed: q must be an integer from 1 to 100")
        #expect(F.outcome("fit=fill&q=0&w=144") == "error: fit=fill is not allowed: fit must be inside or cover")
        #expect(F.outcome("w=145&h=100") == "error: w=145 is not allowed: \(Self.widthRule)")
        #expect(F.outcome("h=100&w=1152&fmt=avif") == "error: h=100 is not allowed: h × dpr must be one of 72, 144, 288, 576, 1152")
    }

    @Test func limits() {
        let long = "w=144&v=" + String(repeating: "a", count: 2049 - 8)
        #expect(F.outcome(long) == "error: a query of 2049 bytes is not allowed: a query must be at most 2048 bytes")
        let multibyte = String(repeating: "é", count: 1025)  // 2050 bytes of UTF-8
        #expect(F.outcome(multibyte) == "error: a query of 2050 bytes is not allowed: a query must be at most 2048 bytes")
        let seventeen = (["w=144"] + Array(repeating: "v=1", count: 16)).joined(separator: "&")
        #expect(F.outcome(seventeen) == "error: a query of more than 16 parameters is not allowed: a query must have at most 16 parameters")
        let manyEmpty = "w=144" + String(repeating: "&", count: 2000)
        #expect(F.outcome(manyEmpty) == "w=144,fit=inside,fmt=source,q=80")
    }

    @Test func itemsAreShownEscapedAndCut() {
        #expect(F.outcome("w=1\n") == "error: w=1%0A is not allowed: \(Self.malformedWidth)")
        #expect(F.outcome("w=é") == "error: w=%C3%A9 is not allowed: \(Self.malformedWidth)")
        #expect(F.outcome("w= 144") == "error: w=%20144 is not allowed: \(Self.malformedWidth)")
        #expect(F.outcome("w=1 4") == "error: w=1%204 is not allowed: \(Self.malformedWidth)")
        #expect(F.outcome("w=\u{0}") == "error: w=%00 is not allowed: \(Self.malformedWidth)")
        let long = "w=" + String(repeating: "9", count: 50)
        #expect(F.outcome(long) == "error: w=" + String(repeating: "9", count: 38) + "… is not allowed: \(Self.malformedWidth)")
        // %XX is never split by the cut.
        let escapes = "fit=" + String(repeating: "\n", count: 20)
        #expect(F.outcome("w=144&" + escapes) == "error: fit=" + String(repeating: "%0A", count: 12) + "… is not allowed: fit must be inside or cover")
        #expect(F.outcome("w=144", passThrough: ["v\n"]) == "w=144,fit=inside,fmt=source,q=80")
        #expect(F.outcome("x", passThrough: ["v\n"]) == "error: x is not allowed: a parameter must be one of w, h, fit, dpr, q, fmt, gravity, profile, info, v%0A")
    }
}
