/// A cursor over field-value bytes with the RFC 9110 §5.6 pieces ``AcceptMediaRange`` needs; every read
/// is bounds-checked.
struct HeaderScanner {
    private let bytes: ArraySlice<UInt8>
    private var position: Int

    init(_ bytes: ArraySlice<UInt8>) {
        self.bytes = bytes
        position = bytes.startIndex
    }

    var atEnd: Bool { position >= bytes.endIndex }
    var peek: UInt8? { atEnd ? nil : bytes[position] }

    /// Skips OWS (SP / HTAB).
    mutating func skipWhitespace() {
        while let byte = peek, byte == 0x20 || byte == 0x09 { position += 1 }
    }

    /// Consumes `byte` when it is next.
    mutating func take(_ byte: UInt8) -> Bool {
        guard peek == byte else { return false }
        position += 1
        return true
    }

    /// A token (1*tchar), or `nil` (nothing consumed) when none starts here.
    mutating func token() -> String? {
        let start = position
        while let byte = peek, HeaderScanner.isTokenCharacter(byte) { position += 1 }
        return position > start ? String(decoding: bytes[start..<position], as: UTF8.self) : nil
    }

    /// Consumes a quoted-string (with quoted-pairs); `false` when none starts here or it is unterminated.
    mutating func quotedString() -> Bool {
        guard take(UInt8(ascii: "\"")) else { return false }
        while let byte = peek {
            position += 1
            if byte == UInt8(ascii: "\"") { return true }
            if byte == UInt8(ascii: "\\") {
                guard !atEnd else { return false }
                position += 1
            }
        }
        return false
    }

    /// tchar: `!#$%&'*+-.^_`|~`, DIGIT, ALPHA.
    static func isTokenCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        default:
            return Array("!#$%&'*+-.^_`|~".utf8).contains(byte)
        }
    }
}
