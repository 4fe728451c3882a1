/// Field values as octets (RFC 9110 §5.5): a value is a sequence of bytes, and obs-text (0x80–0xFF) has no
/// defined charset. Non-ASCII values are decoded as ISO-8859-1 (one byte, one scalar U+0000–U+00FF) so that
/// every byte survives to the other side unchanged, and encoded back the same way.
public enum FieldValueOctets {
    /// The value of `bytes`: UTF-8 decoding when every byte is ASCII (the common case, same result),
    /// else ISO-8859-1.
    public static func decode<Bytes: Collection>(_ bytes: Bytes, hasNonASCII: Bool) -> String where Bytes.Element == UInt8 {
        guard hasNonASCII else { return String(decoding: bytes, as: UTF8.self) }
        var scalars = String.UnicodeScalarView()
        for byte in bytes { scalars.append(Unicode.Scalar(byte)) }
        return String(scalars)
    }

    /// Appends `value`'s octets: scalars up to U+00FF as one byte each (the inverse of ``decode(_:hasNonASCII:)``),
    /// others (never produced by decoding) as UTF-8; CR, LF and NUL become spaces.
    public static func append(_ value: String, to out: inout [UInt8]) {
        for scalar in value.unicodeScalars {
            let code = scalar.value
            if code == 0x0D || code == 0x0A || code == 0 {
                out.append(0x20)
            } else if code <= 0xFF {
                out.append(UInt8(code))
            } else {
                out.append(contentsOf: String(scalar).utf8)
            }
        }
    }
}
