import Foundation
@testable import MediaTransform
import Testing

/// Smart crop (docs/variants.md, `gravity`): with `fit=cover`, libvips' `interesting` crop places the box — around the
/// centre by default, or where `attention` or `entropy` finds the subject; keyed only when it is not `centre`.
@Suite struct GravityTests {
    typealias F = VariantFixture

    static func leftRed() throws -> [UInt8] {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Fixtures/made/left-red-400x100.png")
        return [UInt8](try Data(contentsOf: url))
    }

    @Test func parsedKeyedAndRefused() {
        #expect(F.outcome("w=144&h=72&fit=cover&gravity=attention") == "w=144,h=72,fit=cover,gravity=attention,fmt=source,q=80")
        #expect(F.outcome("gravity=entropy&w=144&h=72&fit=cover") == "w=144,h=72,fit=cover,gravity=entropy,fmt=source,q=80")
        // centre is the default: one key with or without it.
        #expect(F.outcome("w=144&h=72&fit=cover&gravity=centre") == "w=144,h=72,fit=cover,fmt=source,q=80")
        #expect(F.outcome("w=144&h=72&fit=cover") == "w=144,h=72,fit=cover,fmt=source,q=80")
        // Without a crop there is nothing to place: read as centre, one variant (as cover without h is inside).
        #expect(F.outcome("w=144&gravity=attention") == "w=144,fit=inside,fmt=source,q=80")
        #expect(F.outcome("w=144&h=72&gravity=entropy") == "w=144,h=72,fit=inside,fmt=source,q=80")
        for bad in ["gravity=face", "gravity=", "gravity", "gravity=Centre", "gravity=center", "gravity=north"] {
            #expect(F.outcome("w=144&h=72&fit=cover&" + bad)
                == "error: \(bad) is not allowed: gravity must be centre, attention or entropy", "\(bad)")
        }
        #expect(F.outcome("w=144&gravity=attention&gravity=entropy")
            == "error: gravity=attention&gravity=entropy is not allowed: gravity must appear at most once")
    }

    /// A 400 × 100 grey image with a red square at x 20–119, cropped to 100 × 100: grey around the centre, the red
    /// square where attention or entropy looks.
    @Test(arguments: [(Gravity.centre, [128.0, 128, 128]), (.attention, [230, 20, 30]), (.entropy, [230, 20, 30])])
    func theCropFollowsTheSubject(gravity: Gravity, pixel: [Double]) throws {
        let out = try ImageTransformer.derive(
            try Self.leftRed(), spec: VariantSpec(width: 100, height: 100, fit: .cover, quality: 80, format: .format(.png),
                                                  gravity: gravity),
            declared: [.png], limits: TransformLimits(), deadline: nil)
        #expect(out.width == 100 && out.height == 100)
        let decoded = try #require(Decoded(out.bytes))
        #expect(decoded.pixel(50, 50) == pixel, "\(gravity)")
    }
}
