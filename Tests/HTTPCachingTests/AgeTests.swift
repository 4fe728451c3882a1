import MediaCore
import Testing
@testable import HTTPCaching

@Suite struct AgeTests {
    @Test func parsesNonNegativeInteger() {
        #expect(AgeField.parse("0") == 0)
        #expect(AgeField.parse(" 59 ") == 59)
        #expect(AgeField.parse(HTTPFields([("Age", "120")])) == 120)
    }

    @Test func invalidAgeIsIgnored() {
        for text in ["", "-1", "abc", "1.5", "+3", ",", " , ", "x, 5"] {
            #expect(AgeField.parse(text) == nil, "\(text)")
        }
        #expect(AgeField.parse(HTTPFields()) == nil)
    }

    /// RFC 9111 §5.1: a list-based value uses its first member.
    @Test func listUsesItsFirstMember() {
        #expect(AgeField.parse("5, 6") == 5)
        #expect(AgeField.parse("7200, 0") == 7200)
        #expect(AgeField.parse(" , 30,") == 30)
        #expect(AgeField.parse(HTTPFields([("Age", "7200, 0")])) == 7200)
        // `Age: 7200, 0` with `max-age=3600` is stale.
        let stored = StoredResponse(status: 200, fields: HTTPFields([("Cache-Control", "max-age=3600"), ("Age", "7200, 0")]),
                                    requestTime: 1000, responseTime: 1000)
        #expect(stored.currentAge(now: 1000) == 7200)
        #expect(!stored.isFresh(now: 1000, role: .shared))
    }

    @Test func firstLineWins() {
        #expect(AgeField.parse(HTTPFields([("Age", "5"), ("Age", "6")])) == 5)
    }

    @Test func hugeAgeClamps() {
        #expect(AgeField.parse("99999999999") == 2_147_483_648)
        #expect(AgeField.parse("99999999999999999999999999") == 2_147_483_648)
    }

    @Test func currentAgeFollowsSection423() {
        // request at 100, response at 104 with Date 102 and Age 10: apparent 2, corrected 10 + 4 = 14.
        let age = Freshness.currentAge(ageValue: 10, dateValue: 102, requestTime: 100, responseTime: 104, now: 110)
        #expect(age == 20)
    }

    @Test func apparentAgeWinsWhenLarger() {
        // Date 60 s before receipt, no Age.
        #expect(Freshness.currentAge(ageValue: 0, dateValue: 40, requestTime: 100, responseTime: 100, now: 100) == 60)
    }

    @Test func dateInFutureGivesNoNegativeAge() {
        #expect(Freshness.currentAge(ageValue: 0, dateValue: 500, requestTime: 100, responseTime: 100, now: 100) == 0)
    }

    @Test func overflowSafe() {
        #expect(Freshness.currentAge(ageValue: 2_147_483_648, dateValue: .min, requestTime: .min, responseTime: .max, now: .max) == 2_147_483_648)
        let stored = Fixture.stored([("Cache-Control", "max-age=60"), ("Age", "99999999999")])
        #expect(stored.currentAge(now: Fixture.t0 + 5) == 2_147_483_648)
        #expect(stored.ageFieldValue(now: Fixture.t0 + 5) == "2147483648")
    }

    @Test func ageFieldValueClamps() {
        #expect(AgeField.value(for: -5) == "0")
        #expect(AgeField.value(for: 42) == "42")
        #expect(AgeField.value(for: .max) == "2147483648")
    }

    @Test func servedFieldsCarryAge() {
        let stored = Fixture.stored([("Cache-Control", "max-age=60"), ("Age", "3")])
        #expect(stored.servedFields(now: Fixture.t0 + 7)["age"] == "10")
        #expect(stored.servedFields(now: Fixture.t0 + 7).values(for: "age") == ["10"])
    }
}
