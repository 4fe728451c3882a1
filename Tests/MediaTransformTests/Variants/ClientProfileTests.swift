import Testing
@testable import MediaTransform

/// Client profiles for native apps (docs/variants.md, "Native apps"): `profile=NAME` serves the first format the
/// profile lists that the tier declares and can encode at the width; keyed on that format, so no `Vary: Accept`.
@Suite struct ClientProfileTests {
    typealias F = VariantFixture
    static let declaration = VariantDeclaration(
        widths: F.widths, formats: [.jpeg, .webp, .avif, .png], maxDpr: 3, quality: 80,
        clientProfiles: ["ios17": [.avif, .webp, .jpeg], "android12": [.jxl, .webp, .jpeg], "legacy": [.jpeg]])

    @Test func theFirstDeclaredFormatIsServed() throws {
        #expect(F.outcome("w=144&profile=ios17", Self.declaration) == "w=144,fit=inside,fmt=avif,q=80")
        // jxl is not declared here: WebP.
        #expect(F.outcome("w=144&profile=android12", Self.declaration) == "w=144,fit=inside,fmt=webp,q=80")
        #expect(F.outcome("w=144&profile=legacy", Self.declaration) == "w=144,fit=inside,fmt=jpeg,q=80")
        // AVIF only within maxAVIFWidth (576), and only with an encoder: else the next listed format.
        #expect(F.outcome("w=1152&profile=ios17", Self.declaration) == "w=1152,fit=inside,fmt=webp,q=80")
        #expect(F.outcome("w=144&profile=ios17", Self.declaration, avifAvailable: false) == "w=144,fit=inside,fmt=webp,q=80")
        let parsed = try #require(try F.parse("w=144&dpr=3&profile=ios17", Self.declaration, accept: "image/webp"))
        #expect(parsed.negotiated == false)
        #expect(parsed.spec.keyText == "w=576,fit=inside,fmt=avif,q=80")
    }

    @Test func refusalsNameTheProblem() {
        #expect(F.outcome("w=144&profile=ios16", Self.declaration)
            == "error: profile=ios16 is not allowed: profile must be one of android12, ios17, legacy")
        #expect(F.outcome("w=144&profile=ios17") == "error: profile=ios17 is not allowed: no profile is declared")
        #expect(F.outcome("w=144&profile=ios17&fmt=webp", Self.declaration)
            == "error: profile=ios17&fmt=webp is not allowed: fmt and profile cannot be combined: the profile chooses the format")
        let narrow = VariantDeclaration(widths: [1152], formats: [.jpeg, .avif], clientProfiles: ["ios17": [.avif]])
        #expect(F.outcome("w=1152&profile=ios17", narrow)
            == "error: profile=ios17 is not allowed: none of the profile's formats (avif) can be served at this width")
    }
}
