import Foundation
@testable import MediaTransform
import Testing

/// ThumbHash (docs/variants.md "Image info and placeholders"): the published algorithm, byte for byte. The expected
/// values were printed by PyPI `thumbhash` 0.1.2 (Tests/Fixtures/scripts/thumbhash_reference.py) for the same pixels.
@Suite struct ThumbHashTests {
    static func base64(_ bytes: [UInt8]?) -> String? { bytes.map { Data($0).base64EncodedString() } }

    @Test func opaqueAndTransparentPixelsHashAsTheReference() {
        let opaque: [UInt8] = [255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255,
                               255, 255, 255, 255, 10, 20, 30, 255, 200, 100, 50, 255]
        #expect(Self.base64(ThumbHash.encode(width: 3, height: 2, rgba: opaque)) == "Wxg2ZaSZaAZ2homHiJiYYE72qG+L")
        let transparent: [UInt8] = [255, 0, 0, 255, 0, 255, 0, 128, 0, 0, 255, 255, 255, 255, 255, 0]
        #expect(Self.base64(ThumbHash.encode(width: 2, height: 2, rgba: transparent)) == "FWeqpRqZeAiIiIeICIW/+KiPiwR5iIhoCA==")
    }

    @Test func sizesOutsideTheReferenceRangeAreRefused() {
        #expect(ThumbHash.encode(width: 101, height: 1, rgba: [UInt8](repeating: 0, count: 404)) == nil)
        #expect(ThumbHash.encode(width: 0, height: 1, rgba: []) == nil)
        #expect(ThumbHash.encode(width: 2, height: 2, rgba: [UInt8](repeating: 0, count: 15)) == nil)
    }

    @Test func theDominantColourIsTheHeaviestBoxsMean() {
        // Three near-identical greens outweigh one red and one blue; a transparent white pixel weighs nothing.
        let pixels = RGBAPixels(width: 6, height: 1, bytes: [
            0, 200, 0, 255, 2, 201, 1, 255, 1, 202, 0, 255, 255, 0, 0, 255, 0, 0, 255, 255, 255, 255, 255, 0,
        ])
        #expect(DominantColour(of: pixels)?.hex == "#01c900")
        #expect(DominantColour(of: RGBAPixels(width: 1, height: 1, bytes: [9, 9, 9, 0])) == nil)
    }
}
