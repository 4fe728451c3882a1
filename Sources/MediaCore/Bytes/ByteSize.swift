/// A byte count for people, in binary units: `812 B` below 1 KiB, else one decimal in the largest unit
/// (KiB, MiB, GiB, TiB, PiB, EiB) that keeps the value at least 1: `1.0 KiB`, `1.5 MiB`, `39.7 KiB`.
///
/// The decimal is rounded half up (1.45 KiB → `1.5 KiB`); a value that would round to `1024.0` of a unit
/// is shown in the next one (1,048,575 bytes → `1.0 MiB`). Negative counts (never in a report) keep
/// their sign. The HTML reports show ``text`` with the exact count in a `title` (``title``).
public struct ByteSize: Hashable, Sendable {
    /// The exact count.
    public let bytes: Int

    public init(_ bytes: Int) { self.bytes = bytes }

    /// The units from KiB up.
    public static let units = ["KiB", "MiB", "GiB", "TiB", "PiB", "EiB"]

    /// `0 B`, `1023 B`, `1.0 KiB`, `1.5 MiB`, `8.0 EiB` (see the type's documentation).
    public var text: String {
        let magnitude = bytes.magnitude
        let sign = bytes < 0 ? "-" : ""
        guard magnitude >= 1024 else { return "\(sign)\(magnitude) B" }
        var exponent = 1
        while exponent < Self.units.count, magnitude >> (10 * UInt64(exponent + 1)) > 0 { exponent += 1 }
        var tenths = Self.tenths(UInt64(magnitude), exponent: exponent)
        if tenths >= 10240, exponent < Self.units.count {
            exponent += 1
            tenths = Self.tenths(UInt64(magnitude), exponent: exponent)
        }
        return "\(sign)\(tenths / 10).\(tenths % 10) \(Self.units[exponent - 1])"
    }

    /// The exact count for a tooltip: `40618 bytes`, `1 byte`.
    public var title: String { bytes == 1 ? "1 byte" : "\(bytes) bytes" }

    /// `value / 1024^exponent` in tenths, rounded half up, without overflow (UInt64 holds 10 × 2^60).
    private static func tenths(_ value: UInt64, exponent: Int) -> UInt64 {
        let shift = UInt64(10 * exponent)
        let unit = UInt64(1) << shift
        let whole = value >> shift, rest = value & (unit - 1)
        // rest × 10 fits: rest < 2^60 for EiB, and 10 × 2^60 < 2^64.
        return whole * 10 + (rest * 10 + unit / 2) / unit
    }
}
