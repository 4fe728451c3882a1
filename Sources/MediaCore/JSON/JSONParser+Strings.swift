extension JSONParser {
    // MARK: - Strings (RFC 8259 §7)

    mutating func parseString() throws(Failure) -> String {
        advance()  // opening quote
        var out: [UInt8] = []
        while true {
            guard let byte = peek() else { throw fail("unterminated string") }
            switch byte {
            case UInt8(ascii: "\""):
                advance()
                return String(decoding: out, as: UTF8.self)
            case UInt8(ascii: "\\"):
                advance()
                try parseEscape(into: &out)
            case 0x00..<0x20:
                throw fail("control character \(describe(byte)) in a string; escape it")
            default:
                out.append(byte)
                advance()
            }
        }
    }

    mutating func parseEscape(into out: inout [UInt8]) throws(Failure) {
        guard let byte = peek() else { throw fail("unterminated string") }
        let simple: UInt8?
        switch byte {
        case UInt8(ascii: "\""): simple = UInt8(ascii: "\"")
        case UInt8(ascii: "\\"): simple = UInt8(ascii: "\\")
        case UInt8(ascii: "/"): simple = UInt8(ascii: "/")
        case UInt8(ascii: "b"): simple = 0x08
        case UInt8(ascii: "f"): simple = 0x0C
        case UInt8(ascii: "n"): simple = 0x0A
        case UInt8(ascii: "r"): simple = 0x0D
        case UInt8(ascii: "t"): simple = 0x09
        case UInt8(ascii: "u"): simple = nil
        default: throw fail("invalid escape \\\(describeBare(byte))")
        }
        advance()
        if let simple {
            out.append(simple)
            return
        }
        var scalar = try hex4()
        if (0xD800..<0xDC00).contains(scalar) {
            guard peek() == UInt8(ascii: "\\") else { throw fail("lone high surrogate \\u\(String(scalar, radix: 16))") }
            advance()
            guard peek() == UInt8(ascii: "u") else { throw fail("lone high surrogate \\u\(String(scalar, radix: 16))") }
            advance()
            let low = try hex4()
            guard (0xDC00..<0xE000).contains(low) else { throw fail("invalid low surrogate \\u\(String(low, radix: 16))") }
            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
        } else if (0xDC00..<0xE000).contains(scalar) {
            throw fail("lone low surrogate \\u\(String(scalar, radix: 16))")
        }
        out.append(contentsOf: Array(String(Character(Unicode.Scalar(scalar)!)).utf8))
    }

    mutating func hex4() throws(Failure) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let byte = peek() else { throw fail("unterminated \\u escape") }
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: throw fail(expecting: "4 hex digits after \\u")
            }
            value = value << 4 | digit
            advance()
        }
        return value
    }
}
