/// Decimal text for the hit path's per-request field values, without Foundation or `description`.
enum DecimalText {
    /// `value` in decimal (`-` for negatives), as `String(value)` writes it.
    static func string(_ value: Int64) -> String {
        string(prefix: "", value)
    }

    /// `prefix` followed by `value` in decimal, as `prefix + String(value)`: written into a stack
    /// buffer, then one `String` (no allocation when the result fits a small string).
    static func string(prefix: StaticString, _ value: Int64) -> String {
        let prefixCount = prefix.utf8CodeUnitCount
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: prefixCount + 20) { buffer in
            prefix.withUTF8Buffer { bytes in
                for index in 0..<prefixCount { buffer[index] = bytes[index] }
            }
            var count = prefixCount
            var magnitude = value.magnitude
            if value < 0 {
                buffer[count] = UInt8(ascii: "-")
                count += 1
            }
            var digits = 1
            var scale: UInt64 = 10
            while digits < 20 && magnitude >= scale {
                digits += 1
                if scale > UInt64.max / 10 { break }
                scale *= 10
            }
            var end = count + digits
            let total = end
            repeat {
                end -= 1
                buffer[end] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            } while end > count
            return String(decoding: UnsafeBufferPointer(rebasing: buffer[0..<total]), as: UTF8.self)
        }
    }
}
