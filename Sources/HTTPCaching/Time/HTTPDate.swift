/// HTTP-date (RFC 9110 §5.6.7): parsing of the three accepted formats and formatting of the
/// preferred one, IMF-fixdate. Pure arithmetic on the proleptic Gregorian calendar, UTC only.
public enum HTTPDate {
    static let dayNames: [StaticString] = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
    static let longDayNames: [StaticString] = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
    static let monthNames: [StaticString] = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// Formats `time` as an IMF-fixdate, e.g. `Sun, 06 Nov 1994 08:49:37 GMT` (RFC 9110 §5.6.7).
    ///
    /// Years outside 0...9999 are clamped to that range's first or last second.
    public static func format(_ time: EpochSeconds) -> String {
        let clamped = min(max(time, -62_167_219_200), 253_402_300_799)
        let days = floorDivide(clamped, 86_400)
        let secondsOfDay = clamped - days * 86_400
        let (year, month, day) = civil(fromDays: days)
        // 1970-01-01 was a Thursday (index 3 with Monday = 0).
        let weekday = Int(((days % 7) + 7 + 3) % 7)
        var out = ""
        out.reserveCapacity(29)
        out += dayNames[weekday].description
        out += ", "
        out += twoDigits(day)
        out += " "
        out += monthNames[month - 1].description
        out += " "
        out += fourDigits(year)
        out += " "
        out += twoDigits(Int(secondsOfDay / 3600))
        out += ":"
        out += twoDigits(Int(secondsOfDay % 3600 / 60))
        out += ":"
        out += twoDigits(Int(secondsOfDay % 60))
        out += " GMT"
        return out
    }

    /// Days since 1970-01-01 for a proleptic Gregorian date (H. Hinnant's `days_from_civil`).
    static func days(year: Int, month: Int, day: Int) -> Int64 {
        let y = Int64(month <= 2 ? year - 1 : year)
        let era = floorDivide(y, 400)
        let yoe = y - era * 400
        let m = Int64(month)
        let doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + Int64(day) - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// The proleptic Gregorian date of a day count since 1970-01-01 (`civil_from_days`).
    static func civil(fromDays days: Int64) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = floorDivide(z, 146_097)
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yoe + era * 400 + (month <= 2 ? 1 : 0)
        return (Int(year), Int(month), Int(day))
    }

    static func daysInMonth(year: Int, month: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// `a / b` rounded toward negative infinity, for `b > 0`; never overflows (also for `Int64.min`).
    @inline(__always) static func floorDivide(_ a: Int64, _ b: Int64) -> Int64 {
        let quotient = a / b
        return a % b < 0 ? quotient - 1 : quotient
    }

    private static func twoDigits(_ value: Int) -> String {
        value < 10 ? "0" + String(value) : String(value)
    }

    private static func fourDigits(_ value: Int) -> String {
        let text = String(value)
        return String(repeating: "0", count: max(0, 4 - text.count)) + text
    }
}
