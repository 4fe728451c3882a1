import MediaCore

/// The `time` field: an instant with millisecond precision, written as RFC 3339 UTC with exactly three
/// fraction digits, e.g. `2026-11-29T11:07:15.123Z`.
public struct AuditTime: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// Milliseconds since 1970-01-01T00:00:00Z.
    public let millisecondsSinceEpoch: Int64

    /// Wraps milliseconds since the Unix epoch. Years outside 0000–9999 are clamped by formatting only.
    public init(millisecondsSinceEpoch: Int64) { self.millisecondsSinceEpoch = millisecondsSinceEpoch }

    /// The UTC calendar fields of the instant (proleptic Gregorian), for ``rfc3339`` and the canonical writer.
    var fields: (year: Int64, month: Int64, day: Int64, hour: Int64, minute: Int64, second: Int64, millis: Int64) {
        let seconds = CivilDate.floorDivide(millisecondsSinceEpoch, 1000)
        let secondOfDay = CivilDate.floorModulo(seconds, 86_400)
        let (year, month, day) = CivilDate.civil(fromDays: CivilDate.floorDivide(seconds, 86_400))
        return (year, month, day, secondOfDay / 3600, secondOfDay / 60 % 60, secondOfDay % 60,
                CivilDate.floorModulo(millisecondsSinceEpoch, 1000))
    }

    /// The RFC 3339 text, `YYYY-MM-DDTHH:MM:SS.mmmZ`.
    public var rfc3339: String {
        let f = fields
        return pad(f.year, 4) + "-" + pad(f.month, 2) + "-" + pad(f.day, 2) + "T" + pad(f.hour, 2) + ":"
            + pad(f.minute, 2) + ":" + pad(f.second, 2) + "." + pad(f.millis, 3) + "Z"
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
        let days = CivilDate.days(year: year, month: month, day: day)
        guard CivilDate.civil(fromDays: days) == (year, month, day) else { return nil }
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
}
