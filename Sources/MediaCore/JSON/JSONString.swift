/// JSON strings written as `JSONEncoder` writes them (RFC 8259 §7), for the hand-written encoders (the stored head,
/// problem details): `"` and `\` with a backslash, `/` with a backslash unless told not to (`JSONEncoder`'s
/// `.withoutEscapingSlashes`), `\b \t \n \f \r`, other bytes below 0x20 as `\u00xx` (lower-case hex), everything
/// else as raw UTF-8.
public enum JSONString {
    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    /// Appends `text` quoted; runs of bytes that need no escape are copied at once.
    /// - Parameter escapingSlashes: whether `/` is written `\/` (`JSONEncoder`'s default). Default: `true`.
    public static func append(_ text: String, to out: inout [UInt8], escapingSlashes: Bool = true) {
        out.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { bytes in
            @inline(__always) func escapes(_ byte: UInt8) -> Bool {
                byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
                    || (escapingSlashes && byte == UInt8(ascii: "/"))
            }
            // Common case: nothing to escape, one copy.
            guard bytes.contains(where: escapes) else {
                out.append(contentsOf: bytes)
                return
            }
            var runStart = 0
            for index in 0..<bytes.count {
                let byte = bytes[index]
                guard escapes(byte) else { continue }
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
                runStart = index + 1
                out.append(UInt8(ascii: "\\"))
                switch byte {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(byte)
                case 0x08: out.append(UInt8(ascii: "b"))
                case 0x09: out.append(UInt8(ascii: "t"))
                case 0x0A: out.append(UInt8(ascii: "n"))
                case 0x0C: out.append(UInt8(ascii: "f"))
                case 0x0D: out.append(UInt8(ascii: "r"))
                default:
                    out.append(contentsOf: "u00".utf8)
                    out.append(hexDigits[Int(byte >> 4)])
                    out.append(hexDigits[Int(byte & 0x0F)])
                }
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<bytes.count]))
        }
        out.append(UInt8(ascii: "\""))
    }

    /// `text` quoted, as a string.
    public static func quoted(_ text: String, escapingSlashes: Bool = true) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count + 2)
        append(text, to: &out, escapingSlashes: escapingSlashes)
        return String(decoding: out, as: UTF8.self)
    }
}
