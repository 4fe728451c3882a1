import MediaCore
import Testing
@testable import HTTPCaching

/// `Expires` values a recipient must accept or refuse (RFC 9110 §5.6.7, RFC 9111 §5.3): the three date
/// formats, names in the wrong case (which §5.6.7 lets a recipient accept), and malformed dates that are
/// invalid and so already expired.
@Suite struct ExpiresParsingTests {
    static let accepted: [(String, EpochSeconds)] = [
        ("Tue, 19 Jan 2038 14:14:08 GMT", 2_147_523_248),
        ("Sun, 21 Nov 2286 04:46:39 GMT", 10_000_039_599),
        ("Thursday, 18-Aug-50 02:01:18 GMT", 2_544_400_878),
        ("Thu Aug  8 02:01:18 2050", 2_543_536_878),
        ("THU, 18 Aug 2050 02:01:18 GMT", 2_544_400_878),
        ("Thu, 18 AUG 2050 02:01:18 GMT", 2_544_400_878),
        ("Thu, 18 Aug 2050 02:01:18 gMT", 2_544_400_878),
    ]

    static let refused = [
        "Thu, 18 Aug 2050 02:01:18 UTC", "Thu, 18 Aug 2050 02:01:18 AEST", "Thu, 18 Aug 50 02:01:18 GMT",
        "Thu 18 Aug 2050 02:01:18 GMT", "Thu, 18  Aug  2050 02:01:18 GMT", "Thu, 18-Aug-2050 02:01:18 GMT",
        "Thu, 18 Aug 2050 02.01.18 GMT", "Thu, 18 Aug 2050 2:01:18 GMT",
    ]

    @Test func acceptedDates() {
        for (text, seconds) in Self.accepted {
            #expect(HTTPDate.parse(text, now: Fixture.t0) == seconds, "\(text)")
        }
    }

    @Test func refusedDatesAreInvalidAndSoExpired() {
        for text in Self.refused {
            #expect(HTTPDate.parse(text) == nil, "\(text)")
            #expect(Freshness.ExpiresValue(HTTPFields([("Expires", text)])) == .invalid, "\(text)")
        }
    }
}
