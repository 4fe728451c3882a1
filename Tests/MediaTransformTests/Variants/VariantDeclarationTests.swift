import Testing
@testable import MediaTransform

@Suite struct VariantDeclarationTests {
    @Test func defaults() {
        let declaration = VariantDeclaration(widths: [72, 144, 288], formats: [.jpeg])
        #expect(declaration.heights == nil)
        #expect(declaration.maxDpr == 1)
        #expect(declaration.quality == 80)
        #expect(declaration.maxOutputPixels == 288 * 288)
        #expect(declaration.maxAVIFWidth == 576)
        #expect(declaration.allowedHeights == [72, 144, 288])
        #expect(declaration.effectiveMaxDpr == 1)
    }

    @Test func maxOutputPixelsDefaultsToLargestWidthTimesLargestHeight() {
        #expect(VariantDeclaration(widths: [144, 1152], heights: [100, 300], formats: []).maxOutputPixels == 345_600)
        #expect(VariantDeclaration(widths: [144, 1152], heights: [100], formats: [], maxOutputPixels: 5).maxOutputPixels == 5)
        #expect(VariantDeclaration(widths: [], formats: []).maxOutputPixels == 0)
        #expect(VariantDeclaration(widths: [144], heights: [], formats: []).maxOutputPixels == 0)
        #expect(VariantDeclaration(widths: [Int.max], formats: []).maxOutputPixels == Int.max)
    }

    @Test func maxDprBelowOneIsReadAsOne() {
        #expect(VariantDeclaration(widths: [72], formats: [], maxDpr: 0).effectiveMaxDpr == 1)
        #expect(VariantDeclaration(widths: [72], formats: [], maxDpr: -3).effectiveMaxDpr == 1)
        #expect(VariantDeclaration(widths: [72], formats: [], maxDpr: 3).effectiveMaxDpr == 3)
    }
}
