/// Hexadecimal texts: lower-case encoding and decoding of bytes (digests, keys, partition ids), and the upper-case
/// forms error details use (`0xFFE1`, `3C 21 44 4F`).
public enum Hex {
    private static let digits: [UInt8] = Array("0123456789abcdef".utf8)

    /// Encodes bytes as lower-case hex, two characters per byte.
    public static func encode(_ bytes: some Sequence<UInt8>) -> String {
        // Contiguous input (arrays, digests): written straight into the string's storage.
        if let text = bytes.withContiguousStorageIfAvailable({ input in
            String(unsafeUninitializedCapacity: input.count * 2) { out in
                encode(UnsafeRawBufferPointer(input), into: UnsafeMutableRawBufferPointer(out))
                return input.count * 2
            }
        }) {
            return text
        }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.underestimatedCount * 2)
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Writes `bytes` as lower-case hex into `out`, two characters per byte. Precondition: `out` holds at least
    /// `2 × bytes.count` bytes.
    public static func encode(_ bytes: UnsafeRawBufferPointer, into out: UnsafeMutableRawBufferPointer) {
        for index in 0..<bytes.count {
            out[2 &* index] = lowerHexDigit(bytes[index] >> 4)
            out[2 &* index &+ 1] = lowerHexDigit(bytes[index] & 0x0F)
        }
    }

    @inline(__always)
    static func lowerHexDigit(_ nibble: UInt8) -> UInt8 { nibble < 10 ? 0x30 &+ nibble : 0x57 &+ nibble }

    /// Decodes hex (either case). Returns `nil` for an odd length or a non-hex character.
    public static func decode(_ text: some StringProtocol) -> [UInt8]? {
        let utf8 = Array(text.utf8)
        guard utf8.count % 2 == 0 else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(utf8.count / 2)
        var index = 0
        while index < utf8.count {
            guard let high = value(utf8[index]), let low = value(utf8[index + 1]) else { return nil }
            out.append(high << 4 | low)
            index += 2
        }
        return out
    }

    private static func value(_ char: UInt8) -> UInt8? {
        switch char {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return char - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return char - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return char - UInt8(ascii: "A") + 10
        default: return nil
        }
    }

    /// `value` as upper-case hex with at least `digits` digits, prefixed `0x`: `0xFFE1`.
    public static func text(_ value: Int, digits: Int = 2) -> String {
        let hex = String(value, radix: 16, uppercase: true)
        return "0x" + String(repeating: "0", count: max(0, digits - hex.count)) + hex
    }

    /// Up to the first `limit` bytes as spaced upper-case hex: `3C 21 44 4F`.
    public static func bytes(_ bytes: [UInt8], limit: Int = 8) -> String {
        bytes.prefix(limit).map { String(text(Int($0)).dropFirst(2)) }.joined(separator: " ")
    }
}
