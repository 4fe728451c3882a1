import MediaCore
import Testing
@testable import HTTPCaching

@Suite struct HTTPDateTests {
    @Test func parsesIMFFixdate() {
        #expect(HTTPDate.parse("Sun, 06 Nov 1994 08:49:37 GMT") == 784_111_777)
    }

    @Test func parsesRFC850() {
        #expect(HTTPDate.parse("Sunday, 06-Nov-94 08:49:37 GMT") == 784_111_777)
    }

    @Test func parsesAsctime() {
        #expect(HTTPDate.parse("Sun Nov  6 08:49:37 1994") == 784_111_777)
        #expect(HTTPDate.parse("Tue Nov 14 22:13:20 2023") == Fixture.t0)
    }

    @Test func rfc850TwoDigitYearMoreThan50YearsAheadIsPast() {
        // now = 2023: "70" would be 2070 (47 years ahead) → 2070; "80" would be 2080 (57 ahead) → 1980.
        let seventy = HTTPDate.parse("Thursday, 01-Jan-70 00:00:00 GMT", now: Fixture.t0)
        #expect(seventy == CivilDate.days(year: 2070, month: 1, day: 1) * 86_400)
        #expect(HTTPDate.parse("Tuesday, 01-Jan-80 00:00:00 GMT", now: Fixture.t0) == 315_532_800)
        #expect(HTTPDate.parse("Thursday, 01-Jan-70 00:00:00 GMT") == 0)
    }

    @Test func toleratesSurroundingWhitespace() {
        #expect(HTTPDate.parse("  Sun, 06 Nov 1994 08:49:37 GMT\t") == 784_111_777)
    }

    @Test func namesAreReadCaseInsensitively() {
        #expect(HTTPDate.parse("sun, 06 nov 1994 08:49:37 gmt") == 784_111_777)
        #expect(HTTPDate.parse("SUNDAY, 06-NOV-94 08:49:37 GMT") == 784_111_777)
        #expect(HTTPDate.parse("SUN NOV  6 08:49:37 1994") == 784_111_777)
    }

    @Test func rejectsInvalidDates() {
        for text in ["", "0", "-1", "not-a-date", "Sun, 06 Nov 1994 08:49:37 UTC", "Sun, 31 Feb 1994 08:49:37 GMT",
                     "Sun, 06 Nov 1994 24:00:00 GMT", "Sun, 06 Nov 1994 08:60:00 GMT", "Xyz, 06 Nov 1994 08:49:37 GMT",
                     "Sun, 06 Foo 1994 08:49:37 GMT", "Sun, 6 Nov 1994 08:49:37 GMT", "Sun, 06 Nov 94 08:49:37 GMT",
                     "Sun, 00 Nov 1994 08:49:37 GMT", "Sunday, 06-Nov-1994 08:49:37 GMT",
                     "Sun Nov 6 08:49:37 1994"] {
            #expect(HTTPDate.parse(text) == nil, "\(text)")
        }
    }

    @Test func leapSecondReadsAs59() {
        #expect(HTTPDate.parse("Sun, 06 Nov 1994 08:49:60 GMT") == 784_111_799)
    }

    @Test func leapDay() {
        #expect(HTTPDate.parse("Thu, 29 Feb 2024 00:00:00 GMT") == 1_709_164_800)
        #expect(HTTPDate.parse("Wed, 29 Feb 2023 00:00:00 GMT") == nil)
    }

    @Test func formatsIMFFixdate() {
        #expect(HTTPDate.format(784_111_777) == "Sun, 06 Nov 1994 08:49:37 GMT")
        #expect(HTTPDate.format(0) == "Thu, 01 Jan 1970 00:00:00 GMT")
        #expect(HTTPDate.format(Fixture.t0) == Fixture.t0Date)
        #expect(HTTPDate.format(-1) == "Wed, 31 Dec 1969 23:59:59 GMT")
    }

    /// Found by Fuzz/FuzzHTTPDate: an RFC 850 date with `now` near Int64.min trapped in floorDivide, and
    /// with `now` far in the future the two-digit year became a year whose seconds overflowed.
    @Test func rfc850WithExtremeNowIsInvalidNotATrap() {
        let text = "Sunday, 06-Nov-94 08:49:37 GMT"
        #expect(HTTPDate.parse(text, now: .min) == nil)
        #expect(HTTPDate.parse(text, now: .max) == nil)
        #expect(HTTPDate.parse(text, now: 2_318_361_367_053_372_577) == nil)
        #expect(HTTPDate.parse(text, now: -62_167_219_200) == nil)  // year 0: "94" means year 94 - 100
        #expect(HTTPDate.parse("Saturday, 01-Jan-00 00:00:00 GMT", now: -62_167_219_200) == -62_167_219_200)
        #expect(CivilDate.floorDivide(.min, 86_400) == -106_751_991_167_301)
        #expect(CivilDate.floorDivide(-86_400, 86_400) == -1)
        #expect(CivilDate.floorDivide(-86_401, 86_400) == -2)
    }

    @Test func formatParseRoundTrip() {
        for time: EpochSeconds in [0, 951_782_400, 1_709_164_800, 4_102_444_799, 253_402_300_799] {
            #expect(HTTPDate.parse(HTTPDate.format(time)) == time)
        }
    }
}
