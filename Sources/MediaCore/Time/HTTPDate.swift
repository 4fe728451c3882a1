
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
        let days = CivilDate.floorDivide(clamped, 86_400)
        let secondsOfDay = clamped - days * 86_400
        let (year, month, day) = CivilDate.civil(fromDays: days)
        // 1970-01-01 was a Thursday (index 3 with Monday = 0).
        let weekday = Int(((days % 7) + 7 + 3) % 7)
        var out = ""
        out.reserveCapacity(29)
        out += dayNames[weekday].description
        out += ", "
        out += twoDigits(Int(day))
        out += " "
        out += monthNames[Int(month) - 1].description
        out += " "
        out += fourDigits(Int(year))
        out += " "
        out += twoDigits(Int(secondsOfDay / 3600))
        out += ":"
        out += twoDigits(Int(secondsOfDay % 3600 / 60))
        out += ":"
        out += twoDigits(Int(secondsOfDay % 60))
        out += " GMT"
        return out
    }

    private static func twoDigits(_ value: Int) -> String {
        value < 10 ? "0" + String(value) : String(value)
    }

    private static func fourDigits(_ value: Int) -> String {
        let text = String(value)
        return String(repeating: "0", count: max(0, 4 - text.count)) + text
    }
}
