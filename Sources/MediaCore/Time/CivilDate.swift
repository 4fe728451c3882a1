/// Proleptic Gregorian calendar arithmetic on day counts since 1970-01-01 (Howard Hinnant's `days_from_civil` and
/// `civil_from_days`), for the HTTP dates of RFC 9110 §5.6.7 and the RFC 3339 times of the audit log. Exact for
/// every `Int64` day count whose year fits (no Foundation calendar, no time zone: UTC only).
public enum CivilDate {
    /// Days since 1970-01-01 of `year`-`month`-`day` (month 1–12, day 1–31; not range-checked).
    public static func days(year: Int64, month: Int64, day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = floorDivide(y, 400)
        let yoe = y - era * 400
        let doy = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// The date of a day count since 1970-01-01.
    public static func civil(fromDays days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let z = days + 719_468
        let era = floorDivide(z, 146_097)
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// The number of days in `month` (1–12) of `year`.
    public static func daysInMonth(year: Int, month: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// `a / b` rounded toward negative infinity, for `b > 0`; never overflows (also for `Int64.min`).
    @inline(__always) public static func floorDivide(_ a: Int64, _ b: Int64) -> Int64 {
        let quotient = a / b
        return a % b < 0 ? quotient - 1 : quotient
    }

    /// `a` modulo `b` in `0..<b`, for `b > 0`.
    @inline(__always) public static func floorModulo(_ a: Int64, _ b: Int64) -> Int64 { a - floorDivide(a, b) * b }
}
