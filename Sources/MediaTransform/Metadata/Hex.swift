/// Hexadecimal texts for error details.
enum Hex {
    /// `value` as upper-case hex with at least `digits` digits, prefixed `0x`: `0xFFE1`.
    static func text(_ value: Int, digits: Int = 2) -> String {
        let hex = String(value, radix: 16, uppercase: true)
        return "0x" + String(repeating: "0", count: max(0, digits - hex.count)) + hex
    }

    /// Up to the first `limit` bytes as spaced hex: `3C 21 44 4F`.
    static func bytes(_ bytes: [UInt8], limit: Int = 8) -> String {
        bytes.prefix(limit).map { String(text(Int($0)).dropFirst(2)) }.joined(separator: " ")
    }
}
