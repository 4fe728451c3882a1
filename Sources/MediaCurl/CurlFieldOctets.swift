/// Origin field values as octets (RFC 9110 §5.5), the transport side of the server's `FieldValueOctets`:
/// a value with obs-text (0x80–0xFF) is read as ISO-8859-1 and written back byte for byte, so an entity tag
/// such as `"abcdef<0xFC>"` reaches the client, and returns in `If-None-Match`, unchanged.
enum CurlFieldOctets {
    /// UTF-8 decoding for ASCII bytes (the common case), else ISO-8859-1.
    static func decode(_ bytes: UnsafeRawBufferPointer) -> String {
        guard bytes.contains(where: { $0 >= 0x80 }) else { return String(decoding: bytes, as: UTF8.self) }
        var scalars = String.UnicodeScalarView()
        for byte in bytes { scalars.append(Unicode.Scalar(byte)) }
        return String(scalars)
    }

    /// `line`'s octets with a terminating NUL: scalars up to U+00FF as one byte, others as UTF-8.
    static func cString(_ line: String) -> [CChar] {
        var out: [CChar] = []
        out.reserveCapacity(line.utf8.count + 1)
        for scalar in line.unicodeScalars {
            if scalar.value <= 0xFF {
                out.append(CChar(bitPattern: UInt8(scalar.value)))
            } else {
                for byte in String(scalar).utf8 { out.append(CChar(bitPattern: byte)) }
            }
        }
        out.append(0)
        return out
    }
}
