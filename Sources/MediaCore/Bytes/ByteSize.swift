/// Byte counts for people: binary units, one decimal from KiB up (`812 B`, `1.0 KiB`, `1.4 MiB`, `256.0 MiB`,
/// `3.2 GiB`, `1.0 TiB`), the unit chosen so that the number is below 1024 (TiB at most).
public enum ByteSize {
    /// `bytes` as text; a negative count is written as `0 B`.
    public static func text(_ bytes: Int64) -> String {
        guard bytes >= 1024 else { return "\(max(bytes, 0)) B" }
        let units = ["KiB", "MiB", "GiB", "TiB"]
        var value = Double(bytes) / 1024
        var unit = 0
        // Round first, so 1,048,575 B is `1.0 MiB`, not `1024.0 KiB`.
        while (value * 10).rounded() / 10 >= 1024, unit < units.count - 1 {
            value /= 1024
            unit += 1
        }
        let tenths = Int64((value * 10).rounded())
        return "\(tenths / 10).\(tenths % 10) \(units[unit])"
    }

    /// ``text(_:)`` of an `Int`.
    public static func text(_ bytes: Int) -> String { text(Int64(bytes)) }
}
