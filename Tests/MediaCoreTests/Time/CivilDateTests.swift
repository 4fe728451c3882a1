import MediaCore
import Testing

/// The one calendar: day counts since 1970-01-01 and back, for HTTP dates and the audit log's RFC 3339 times.
@Suite struct CivilDateTests {
    @Test func knownDays() {
        #expect(CivilDate.days(year: 1970, month: 1, day: 1) == 0)
        #expect(CivilDate.days(year: 2000, month: 3, day: 1) == 11_017)
        #expect(CivilDate.days(year: 1969, month: 12, day: 31) == -1)
        #expect(CivilDate.days(year: 0, month: 1, day: 1) == -719_528)
        #expect(CivilDate.civil(fromDays: 19_675) == (2023, 11, 14))
        #expect(CivilDate.civil(fromDays: -719_528) == (0, 1, 1))
    }

    @Test func everyDayOfFourCenturiesRoundTrips() {
        // 1600-01-01 … 2000-12-31 covers every leap rule (÷4, ÷100, ÷400).
        for days in CivilDate.days(year: 1600, month: 1, day: 1)...CivilDate.days(year: 2000, month: 12, day: 31) {
            let (year, month, day) = CivilDate.civil(fromDays: days)
            #expect(CivilDate.days(year: year, month: month, day: day) == days)
            #expect(day >= 1 && day <= Int64(CivilDate.daysInMonth(year: Int(year), month: Int(month))))
        }
    }

    @Test func leapYears() {
        #expect(CivilDate.daysInMonth(year: 2000, month: 2) == 29)
        #expect(CivilDate.daysInMonth(year: 1900, month: 2) == 28)
        #expect(CivilDate.daysInMonth(year: 2024, month: 2) == 29)
        #expect(CivilDate.daysInMonth(year: 2023, month: 4) == 30)
    }

    @Test func divisionRoundsTowardNegativeInfinity() {
        #expect(CivilDate.floorDivide(.min, 86_400) == -106_751_991_167_301)
        #expect(CivilDate.floorDivide(-86_400, 86_400) == -1)
        #expect(CivilDate.floorDivide(-86_401, 86_400) == -2)
        #expect(CivilDate.floorModulo(-1, 1000) == 999)
        #expect(CivilDate.floorModulo(1001, 1000) == 1)
    }
}
