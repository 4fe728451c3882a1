/// The `time` field: an instant with millisecond precision, written as RFC 3339 UTC with exactly three
/// fraction digits, e.g. `2026-11-29T11:07:15.123Z`.
public struct AuditTime: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// Milliseconds since 1970-01-01T00:00:00Z.
    public let millisecondsSinceEpoch: Int64

    /// Wraps milliseconds since the Unix epoch. Years outside 0000–9999 are clamped by formatting only.
    public init(millisecondsSinceEpoch: Int64) { self.millisecondsSinceEpoch = millisecondsSinceEpoch }

    /// The RFC 3339 text, `YYYY-MM-DDTHH:MM:SS.mmmZ`.
    public var rfc3339: String {
        let millis = Int64.floorMod(millisecondsSinceEpoch, 1000)
        let seconds = Int64.floorDiv(millisecondsSinceEpoch, 1000)
        let days = Int64.floorDiv(seconds, 86_400)
        let secondOfDay = Int64.floorMod(seconds, 86_400)
        let (year, month, day) = Self.civil(fromDays: days)
        return pad(year, 4) + "-" + pad(month, 2) + "-" + pad(day, 2) + "T" + pad(secondOfDay / 3600, 2) + ":"
            + pad(secondOfDay / 60 % 60, 2) + ":" + pad(secondOfDay % 60, 2) + "." + pad(millis, 3) + "Z"
    }

    /// Appends the UTF-8 bytes of ``rfc3339`` to `out`, without building a `String` (years 0–9999;
    /// other years take the `String` path so the bytes stay identical).
    func appendRFC3339(to out: inout [UInt8]) {
        let millis = Int64.floorMod(millisecondsSinceEpoch, 1000)
        let seconds = Int64.floorDiv(millisecondsSinceEpoch, 1000)
        let days = Int64.floorDiv(seconds, 86_400)
        let secondOfDay = Int64.floorMod(seconds, 86_400)
        let (year, month, day) = Self.civil(fromDays: days)
        guard (0...9999).contains(year) else { return out.append(contentsOf: rfc3339.utf8) }
        func two(_ value: Int64) {
            out.append(UInt8(ascii: "0") + UInt8(value / 10))
            out.append(UInt8(ascii: "0") + UInt8(value % 10))
        }
        two(year / 100)
        two(year % 100)
        out.append(UInt8(ascii: "-"))
        two(month)
        out.append(UInt8(ascii: "-"))
        two(day)
        out.append(UInt8(ascii: "T"))
        two(secondOfDay / 3600)
        out.append(UInt8(ascii: ":"))
        two(secondOfDay / 60 % 60)
        out.append(UInt8(ascii: ":"))
        two(secondOfDay % 60)
        out.append(UInt8(ascii: "."))
        out.append(UInt8(ascii: "0") + UInt8(millis / 100))
        two(millis % 100)
        out.append(UInt8(ascii: "Z"))
    }

    /// Parses the exact shape `YYYY-MM-DDTHH:MM:SS.mmmZ`; returns `nil` for anything else.
    public init?(rfc3339 text: String) {
        let b = Array(text.utf8)
        guard b.count == 24, b[4] == 0x2d, b[7] == 0x2d, b[10] == 0x54, b[13] == 0x3a, b[16] == 0x3a,
              b[19] == 0x2e, b[23] == 0x5a
        else { return nil }
        func number(_ range: Range<Int>) -> Int64? {
            var value: Int64 = 0
            for i in range {
                guard (0x30...0x39).contains(b[i]) else { return nil }
                value = value * 10 + Int64(b[i] - 0x30)
            }
            return value
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
              let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
              let millis = number(20..<23), (1...12).contains(month), (1...31).contains(day), hour < 24,
              minute < 60, second < 60
        else { return nil }
        let days = Self.days(fromCivil: year, month, day)
        guard Self.civil(fromDays: days) == (year, month, day) else { return nil }
        self.millisecondsSinceEpoch = ((days * 86_400 + hour * 3600 + minute * 60 + second) * 1000) + millis
    }

    public var description: String { rfc3339 }
    public static func < (lhs: AuditTime, rhs: AuditTime) -> Bool {
        lhs.millisecondsSinceEpoch < rhs.millisecondsSinceEpoch
    }

    private func pad(_ value: Int64, _ width: Int) -> String {
        let text = String(value)
        return text.count >= width ? text : String(repeating: "0", count: width - text.count) + text
    }

    // Howard Hinnant's civil-from-days and days-from-civil (proleptic Gregorian).
    static func civil(fromDays z0: Int64) -> (Int64, Int64, Int64) {
        let z = z0 + 719_468
        let era = Int64.floorDiv(z, 146_097)
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    static func days(fromCivil year0: Int64, _ month: Int64, _ day: Int64) -> Int64 {
        let year = month <= 2 ? year0 - 1 : year0
        let era = Int64.floorDiv(year, 400)
        let yoe = year - era * 400
        let doy = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }
}

extension Int64 {
    fileprivate static func floorDiv(_ a: Int64, _ b: Int64) -> Int64 {
        let q = a / b
        return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q
    }

    fileprivate static func floorMod(_ a: Int64, _ b: Int64) -> Int64 { a - floorDiv(a, b) * b }
}
