/// The canonical form of a signed URL's path: what mediactl's router would send on unchanged. Each byte is
/// either a literal RFC 3986 `pchar` that needs no encoding (`A–Z a–z 0–9 - . _ ~ ! $ & ' ( ) * + , ; = : @`)
/// or `/`, or `%XY` with upper-case hex digits encoding a byte that is none of those (docs/signed-urls.md,
/// "Paths"), with no `.` or `..` segment (also as `..;x`) and no empty segment but a trailing slash: what the router
/// resolves without changing or refusing it. `/receipts/caf%C3%A9.png` is canonical; `/%72eceipts/a.png`,
/// `/receipts/caf%c3%a9.png`, `/a/../b` and `//a` are not.
public enum CanonicalPath {
    /// The message of a refusal for a path that is not canonical.
    public static let refusal = "the path of a signed URL must be in canonical form (docs/signed-urls.md, \"Paths\")"

    /// Whether `path` starts with `/` and is in canonical form.
    public static func isCanonical(_ path: some StringProtocol) -> Bool {
        let bytes = Array(path.utf8)
        guard bytes.first == UInt8(ascii: "/") else { return false }
        let segments = bytes.dropFirst().split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
        for (index, segment) in segments.enumerated() {
            if segment.isEmpty && index != segments.count - 1 { return false }
            let name = segment.prefix { $0 != UInt8(ascii: ";") }
            if name.elementsEqual([0x2E]) || name.elementsEqual([0x2E, 0x2E]) { return false }
        }
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%") {
                guard index + 2 < bytes.count, let high = upperHex(bytes[index + 1]), let low = upperHex(bytes[index + 2]),
                      !isLiteral(high << 4 | low), high << 4 | low != UInt8(ascii: "/") else { return false }
                index += 3
            } else {
                guard isLiteral(byte) || byte == UInt8(ascii: "/") else { return false }
                index += 1
            }
        }
        return true
    }

    /// `segment` (decoded) in canonical form: the bytes ``isCanonical(_:)`` keeps literal, every other byte `%XY`.
    public static func encode(segment: some StringProtocol) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(segment.utf8.count)
        let digits = Array("0123456789ABCDEF".utf8)
        for byte in segment.utf8 {
            if isLiteral(byte) {
                out.append(byte)
            } else {
                out.append(UInt8(ascii: "%"))
                out.append(digits[Int(byte >> 4)])
                out.append(digits[Int(byte & 0x0F)])
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    @inline(__always)
    static func upperHex(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 0x30...0x39: byte - 0x30
        case 0x41...0x46: byte - 0x41 + 10
        default: nil
        }
    }

    /// RFC 3986 `pchar` bytes that stay literal: ALPHA, DIGIT, `-._~!$&'()*+,;=:@` (the router's
    /// segment encoding uses the same set).
    @inlinable @inline(__always)
    public static func isLiteral(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x41...0x5A, 0x61...0x7A, 0x30...0x39: true
        case UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "!"),
             UInt8(ascii: "$"), UInt8(ascii: "&"), UInt8(ascii: "'"), UInt8(ascii: "("), UInt8(ascii: ")"),
             UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "="),
             UInt8(ascii: ":"), UInt8(ascii: "@"):
            true
        default: false
        }
    }
}
