
extension HTTPDate {
    /// Parses an HTTP-date in any of the three formats of RFC 9110 §5.6.7:
    /// IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`), obsolete RFC 850
    /// (`Sunday, 06-Nov-94 08:49:37 GMT`) and asctime (`Sun Nov  6 08:49:37 1994`).
    ///
    /// - Parameters:
    ///   - value: the field value; surrounding whitespace is ignored; day names, month names and `GMT` are
    ///     read case-insensitively (`THU`, `AUG`, `gMT`: the grammar is case-sensitive, but RFC 9110 §5.6.7
    ///     lets a recipient be robust); the day name must be a valid one (it is not checked against the date).
    ///     Anything else the grammar does not allow (`UTC`, a one-digit hour, doubled spaces, a missing comma,
    ///     dashes in an IMF-fixdate, a two-digit year outside RFC 850) makes the value invalid.
    ///   - now: used for RFC 850 two-digit years: a year that would be more than 50 years in the future
    ///     is the most recent past year with the same last two digits (RFC 9110 §5.6.7). When `nil`,
    ///     years 70–99 are 19xx and 00–69 are 20xx. A year outside 0...9999 makes the date invalid.
    /// - Returns: the time in seconds since the epoch, or `nil` when `value` is not a valid HTTP-date
    ///   (wrong format, out-of-range field, impossible day of month). Second 60 (leap second) reads as 59.
    public static func parse(_ value: String, now: EpochSeconds? = nil) -> EpochSeconds? {
        var copy = value
        return copy.withUTF8 { parse(bytes: $0, now: now) }
    }

    /// Parses an HTTP-date from its UTF-8 bytes; see ``parse(_:now:)``.
    public static func parse(bytes raw: UnsafeBufferPointer<UInt8>, now: EpochSeconds? = nil) -> EpochSeconds? {
        var lower = 0, upper = raw.count
        while lower < upper, raw[lower] == 0x20 || raw[lower] == 0x09 { lower += 1 }
        while upper > lower, raw[upper - 1] == 0x20 || raw[upper - 1] == 0x09 { upper -= 1 }
        guard upper - lower >= 24 else { return nil }
        let bytes = UnsafeBufferPointer(rebasing: raw[lower..<upper])
        if bytes[3] == UInt8(ascii: ",") {
            return parseIMFFixdate(bytes)
        } else if bytes[3] == 0x20 {
            return parseAsctime(bytes)
        } else {
            return parseRFC850(bytes, now: now)
        }
    }

    // "Sun, 06 Nov 1994 08:49:37 GMT" (29 bytes)
    private static func parseIMFFixdate(_ b: UnsafeBufferPointer<UInt8>) -> EpochSeconds? {
        guard b.count == 29, dayIndex(b, 0, 3, dayNames) != nil, b[4] == 0x20, b[7] == 0x20, b[11] == 0x20,
              b[16] == 0x20, matches(b, 25, " GMT"),
              let day = digits(b, 5, 2), let month = dayIndex(b, 8, 3, monthNames), let year = digits(b, 12, 4)
        else { return nil }
        return assemble(year: year, month: month + 1, day: day, b, timeAt: 17)
    }

    // "Sunday, 06-Nov-94 08:49:37 GMT"
    private static func parseRFC850(_ b: UnsafeBufferPointer<UInt8>, now: EpochSeconds?) -> EpochSeconds? {
        var comma = 0
        while comma < b.count, b[comma] != UInt8(ascii: ",") { comma += 1 }
        guard comma >= 6, comma <= 9, b.count == comma + 24, dayIndex(b, 0, comma, longDayNames) != nil else { return nil }
        let s = comma + 1
        guard b[s] == 0x20, b[s + 3] == UInt8(ascii: "-"), b[s + 7] == UInt8(ascii: "-"), b[s + 10] == 0x20,
              matches(b, s + 19, " GMT"),
              let day = digits(b, s + 1, 2), let month = dayIndex(b, s + 4, 3, monthNames), let yy = digits(b, s + 8, 2)
        else { return nil }
        var year: Int
        if let now {
            let currentYear = Int(CivilDate.civil(fromDays: CivilDate.floorDivide(now, 86_400)).year)
            year = currentYear - currentYear % 100 + yy
            if year > currentYear + 50 { year -= 100 }
            // A `now` far from the present gives years no HTTP-date can carry (and would overflow).
            guard (0...9999).contains(year) else { return nil }
        } else {
            year = yy < 70 ? 2000 + yy : 1900 + yy
        }
        return assemble(year: year, month: month + 1, day: day, b, timeAt: s + 11)
    }

    // "Sun Nov  6 08:49:37 1994" (24 bytes)
    private static func parseAsctime(_ b: UnsafeBufferPointer<UInt8>) -> EpochSeconds? {
        guard b.count == 24, dayIndex(b, 0, 3, dayNames) != nil, b[7] == 0x20, b[10] == 0x20, b[19] == 0x20,
              let month = dayIndex(b, 4, 3, monthNames), let year = digits(b, 20, 4)
        else { return nil }
        let day: Int
        if b[8] == 0x20, let single = digits(b, 9, 1) { day = single } else if let double = digits(b, 8, 2) { day = double } else { return nil }
        return assemble(year: year, month: month + 1, day: day, b, timeAt: 11)
    }

    /// Reads `HH:MM:SS` at `offset` and combines it with the date after range checks.
    private static func assemble(year: Int, month: Int, day: Int, _ b: UnsafeBufferPointer<UInt8>, timeAt offset: Int) -> EpochSeconds? {
        guard b[offset + 2] == UInt8(ascii: ":"), b[offset + 5] == UInt8(ascii: ":"),
              let hour = digits(b, offset, 2), let minute = digits(b, offset + 3, 2), let second = digits(b, offset + 6, 2),
              hour < 24, minute < 60, second <= 60, day >= 1, day <= CivilDate.daysInMonth(year: year, month: month)
        else { return nil }
        let days = CivilDate.days(year: Int64(year), month: Int64(month), day: Int64(day))
        return days * 86_400 + Int64(hour * 3600 + minute * 60 + min(second, 59))
    }

    @inline(__always) private static func digits(_ b: UnsafeBufferPointer<UInt8>, _ offset: Int, _ count: Int) -> Int? {
        var value = 0
        for index in offset..<(offset + count) {
            let digit = b[index] &- 0x30
            guard digit < 10 else { return nil }
            value = value * 10 + Int(digit)
        }
        return value
    }

    private static func matches(_ b: UnsafeBufferPointer<UInt8>, _ offset: Int, _ literal: StaticString) -> Bool {
        guard offset + literal.utf8CodeUnitCount <= b.count else { return false }
        for index in 0..<literal.utf8CodeUnitCount {
            let expected = literal.utf8Start[index], actual = b[offset + index]
            // ASCII letters compare case-insensitively (only letters: `|0x20` would also fold `@` into `` ` ``).
            if actual == expected { continue }
            let folded = expected | 0x20
            guard folded >= UInt8(ascii: "a"), folded <= UInt8(ascii: "z"), actual | 0x20 == folded else { return false }
        }
        return true
    }

    private static func dayIndex(_ b: UnsafeBufferPointer<UInt8>, _ offset: Int, _ count: Int, _ names: [StaticString]) -> Int? {
        for (index, name) in names.enumerated() where name.utf8CodeUnitCount == count && matches(b, offset, name) {
            return index
        }
        return nil
    }
}
