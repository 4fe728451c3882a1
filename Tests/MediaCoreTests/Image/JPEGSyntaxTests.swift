import MediaCore
import Testing

/// The JPEG grammar the validator and the metadata stripper share: markers with fill bytes, segment lengths, and the end
/// of entropy-coded data.
@Suite struct JPEGSyntaxTests {
    @Test func markers() {
        #expect(JPEGSyntax.marker([0xFF, 0xD8, 0xFF, 0xE1], at: 2) == .marker(code: 0xE1, codeOffset: 3))
        #expect(JPEGSyntax.marker([0xFF, 0xFF, 0xFF, 0xC0], at: 0) == .marker(code: 0xC0, codeOffset: 3))
        #expect(JPEGSyntax.marker([0xFF, 0x00], at: 0) == .marker(code: 0x00, codeOffset: 1))
        #expect(JPEGSyntax.marker([0xFF, 0xD8, 0x12], at: 2) == .notAMarker(found: 0x12))
        #expect(JPEGSyntax.marker([0xFF, 0xD8], at: 2) == .ends(at: 2))
        #expect(JPEGSyntax.marker([0xFF, 0xD8, 0xFF, 0xFF], at: 2) == .ends(at: 4))
    }

    @Test func segments() {
        #expect(JPEGSyntax.segment([0xFF, 0xE0, 0x00, 0x04, 0x01, 0x02], lengthAt: 2) == .ends(at: 6))
        #expect(JPEGSyntax.segment([0xFF, 0xE0, 0x00], lengthAt: 2) == .noLength)
        #expect(JPEGSyntax.segment([0xFF, 0xE0, 0x00, 0x01], lengthAt: 2) == .tooShort(length: 1))
        #expect(JPEGSyntax.segment([0xFF, 0xE0, 0x00, 0x05, 0x01, 0x02], lengthAt: 2) == .pastEnd(length: 5))
    }

    @Test func kindsOfMarker() {
        #expect(JPEGSyntax.isStandalone(0x01) && JPEGSyntax.isStandalone(0xD0) && JPEGSyntax.isStandalone(0xD7))
        #expect(!JPEGSyntax.isStandalone(0xD8) && !JPEGSyntax.isStandalone(0xDA))
        #expect(JPEGSyntax.isStartOfFrame(0xC0) && JPEGSyntax.isStartOfFrame(0xC2) && JPEGSyntax.isStartOfFrame(0xCF))
        #expect(!JPEGSyntax.isStartOfFrame(0xC4) && !JPEGSyntax.isStartOfFrame(0xC8) && !JPEGSyntax.isStartOfFrame(0xCC))
    }

    @Test func entropyCodedData() {
        #expect(JPEGSyntax.entropyCodedDataEnd([0x12, 0xFF, 0x00, 0xFF, 0xD3, 0xFF, 0xFF, 0xD9], from: 0) == 6)
        #expect(JPEGSyntax.entropyCodedDataEnd([0x12, 0xFF], from: 0) == nil)
        #expect(JPEGSyntax.entropyCodedDataEnd([0xFF, 0xD9, 0xFF, 0xD9], from: 1) == 2)
    }
}
