import Foundation
import Testing
@testable import MediaTransform

/// A progressive JPEG's metadata segments between scans are removed too; the scans stay byte-identical.
@Suite struct JPEGBetweenScansTests {
    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures/made/metadata-between-scans.jpg")

    @Test func segmentsBetweenScansAreCutAndTheScansKept() throws {
        let original = [UInt8](try Data(contentsOf: Self.fixture))
        let stripped = try MetadataStripper.strip(original)
        #expect(stripped.removed == ["COM", "APP1 XMP"])
        #expect(stripped.bytes.count == original.count - 100)
        for marker in ["SECRET-ADDRESS", "GPS 48.85", "http://ns.adobe.com/xap"] {
            #expect(Data(stripped.bytes).range(of: Data(marker.utf8)) == nil, "\(marker)")
        }
        // The output is the original with exactly those two segments (100 bytes) cut out.
        let cut = try #require(Data(original).range(of: Data([0xFF, 0xFE])))
        #expect(Array(original[..<cut.lowerBound]) + Array(original[(cut.lowerBound + 100)...]) == stripped.bytes)
        #expect(try MetadataStripper.strip(stripped.bytes).bytes == stripped.bytes)
        #expect(try MetadataStripper.strip(stripped.bytes).removed == [])
    }
}
