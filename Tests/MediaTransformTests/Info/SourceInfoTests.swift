import Foundation
@testable import MediaTransform
import Testing

/// `?info=1` (docs/variants.md "Image info and placeholders"): a source's upright size, format, alpha, frames,
/// dominant colour and ThumbHash, as JSON with no metadata field; the query takes no other variant parameter.
@Suite struct SourceInfoTests {
    typealias F = VariantFixture

    static func info(_ path: String) throws -> SourceInfo {
        try ImageTransformer.info(try Fixtures.bytes(path), limits: TransformLimits(), deadline: nil)
    }

    @Test func aPhotoIsDescribed() throws {
        let info = try Self.info("large/hubble-1000.jpg")
        #expect(String(decoding: info.json, as: UTF8.self) == ##"{"width":1000,"height":872,"format":"jpeg","hasAlpha":false,"frames":1,"dominantColor":"#0b0d0b","thumbHash":"BfgBBoAHZWu5FZi1UqljmYbUpq5ggBs="}"##)
        #expect(info.thumbnail.width == 100 && info.thumbnail.height == 87)
    }

    /// Stored 872 × 1000 with EXIF orientation 6 and a GPS position: described upright, 1000 × 872, and the JSON
    /// carries nothing of the EXIF.
    @Test func orientationIsAppliedAndNoMetadataIsCarried() throws {
        let info = try Self.info("uploads/gps-orient6.jpg")
        #expect(info.width == 1000 && info.height == 872)
        #expect(info.thumbnail.width == 100 && info.thumbnail.height == 87)
        #expect(String(decoding: info.json, as: UTF8.self) == ##"{"width":1000,"height":872,"format":"jpeg","hasAlpha":false,"frames":1,"dominantColor":"#0b0d0b","thumbHash":"xfcBBoAHZWu5FZi1UqljmYbUpa5ggBw="}"##)
    }

    @Test func transparencyAndFramesAreDescribed() throws {
        // 14 × 25 is inside the 100 × 100 box: hashed as it is, never enlarged.
        let info = try Self.info("catalog/spinner.gif")
        #expect(info.thumbnail.width == 14 && info.thumbnail.height == 25)
        #expect(String(decoding: info.json, as: UTF8.self) == ##"{"width":14,"height":25,"format":"gif","hasAlpha":true,"frames":24,"dominantColor":"#85968b","thumbHash":"HPgNBAKZxnn3iHWHmIgAkQcUeg=="}"##)
    }

    @Test func theQueryIsInfoAlone() {
        #expect(F.outcome("info=1") == "info=1")
        #expect(F.outcome("info=1&v=3") == "info=1")
        for bad in ["info=2", "info=", "info", "info=true", "info=01"] {
            #expect(F.outcome(bad) == "error: \(bad) is not allowed: info must be 1", "\(bad)")
        }
        #expect(F.outcome("w=144&info=1")
            == "error: w=144&info=1 is not allowed: info=1 takes no other variant parameter: it describes the source")
        #expect(F.outcome("info=1&info=1") == "error: info=1&info=1 is not allowed: info must appear at most once")
    }
}
