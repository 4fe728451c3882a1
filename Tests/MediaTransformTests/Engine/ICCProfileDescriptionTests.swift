import Foundation
import Testing
@testable import MediaTransform

/// Standard sRGB profiles are recognised by their description (their conversion is skipped); others are not.
@Suite struct ICCProfileDescriptionTests {
    /// The ICC profile embedded in a JPEG's APP2 segment (a single-chunk profile).
    static func embeddedProfile(_ jpeg: [UInt8]) -> [UInt8]? {
        let marker = Array("ICC_PROFILE\0".utf8)
        guard let start = (0..<(jpeg.count - marker.count)).first(where: { Array(jpeg[$0..<($0 + marker.count)]) == marker })
        else { return nil }
        let segmentLength = Int(jpeg[start - 2]) << 8 | Int(jpeg[start - 1])
        return Array(jpeg[(start + 14)..<(start - 2 + segmentLength)])
    }

    @Test func hubblesProfileIsSRGB() throws {
        let profile = try #require(Self.embeddedProfile(try Fixtures.bytes("large/hubble-1000.jpg")))
        #expect(ICCProfileDescription.description(profile) == "sRGB IEC61966-2.1")
        #expect(ICCProfileDescription.isSRGB(profile))
    }

    @Test func otherOrMalformedProfilesAreNot() throws {
        var profile = try #require(Self.embeddedProfile(try Fixtures.bytes("large/hubble-1000.jpg")))
        // Rename the description: "sRGB IEC61966-2.1" → "Wide IEC61966-2.1".
        let name = Array("sRGB IEC61966-2.1".utf8)
        let at = try #require((0..<(profile.count - name.count)).first { Array(profile[$0..<($0 + name.count)]) == name })
        profile.replaceSubrange(at..<(at + 4), with: Array("Wide".utf8))
        #expect(ICCProfileDescription.description(profile) == "Wide IEC61966-2.1")
        #expect(ICCProfileDescription.isSRGB(profile) == false)
        #expect(!ICCProfileDescription.isSRGB([]))
        #expect(!ICCProfileDescription.isSRGB(Array(repeating: 0xFF, count: 200)))
        #expect(!ICCProfileDescription.isSRGB(Array(profile.prefix(140))))
    }
}
