/// A strict RFC 8259 JSON parser over UTF-8 bytes that reports the line and column of the first
/// syntax error: the policy files and the admin purge body (small, checked input).
///
/// Rejects: trailing commas, comments, leading zeros, lone surrogates, control characters in
/// strings, invalid UTF-8, nesting deeper than ``maximumDepth``, and anything after the value.
/// A leading UTF-8 byte order mark is skipped.
public struct JSONParser {
    /// A syntax error: 1-based line and column (columns count Unicode scalars).
    public struct Failure: Error, Equatable {
        public var line: Int
        public var column: Int
        public var message: String
    }

    /// Maximum nesting of arrays and objects. Default: 64.
    public static let maximumDepth = 64

    let bytes: [UInt8]
    var index = 0
    var line = 1
    var column = 1
    var depth = 0

    private init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// Parses one JSON document.
    /// - Throws: ``Failure`` with the position of the first error.
    public static func parse(_ bytes: [UInt8]) throws(Failure) -> JSONValue {
        var parser = JSONParser(bytes)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { parser.index = 3 }
        guard String(validating: bytes, as: UTF8.self) != nil else {
            throw parser.failureAtInvalidUTF8()
        }
        parser.skipWhitespace()
        let value = try parser.parseValue()
        parser.skipWhitespace()
        guard parser.index == bytes.count else { throw parser.fail("unexpected content after the JSON value") }
        return value
    }

    // MARK: - Values

    private mutating func parseValue() throws(Failure) -> JSONValue {
        guard let byte = peek() else { throw fail("unexpected end of file, expected a value") }
        switch byte {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
        default: throw fail("unexpected character \(describe(byte)), expected a value")
        }
    }

    private mutating func parseObject() throws(Failure) -> JSONValue {
        try enter()
        advance()  // {
        var members: [JSONValue.Member] = []
        skipWhitespace()
        if peek() == UInt8(ascii: "}") {
            advance()
            depth -= 1
            return .object(members)
        }
        while true {
            skipWhitespace()
            guard peek() == UInt8(ascii: "\"") else { throw fail(expecting: "a member name in double quotes") }
            let key = try parseString()
            skipWhitespace()
            guard peek() == UInt8(ascii: ":") else { throw fail(expecting: "':' after the member name") }
            advance()
            skipWhitespace()
            let value = try parseValue()
            members.append(JSONValue.Member(key: key, value: value))
            skipWhitespace()
            if peek() == UInt8(ascii: ",") {
                advance()
                continue
            }
            guard peek() == UInt8(ascii: "}") else { throw fail(expecting: "',' or '}'") }
            advance()
            depth -= 1
            return .object(members)
        }
    }

    private mutating func parseArray() throws(Failure) -> JSONValue {
        try enter()
        advance()  // [
        var elements: [JSONValue] = []
        skipWhitespace()
        if peek() == UInt8(ascii: "]") {
            advance()
            depth -= 1
            return .array(elements)
        }
        while true {
            skipWhitespace()
            elements.append(try parseValue())
            skipWhitespace()
            if peek() == UInt8(ascii: ",") {
                advance()
                continue
            }
            guard peek() == UInt8(ascii: "]") else { throw fail(expecting: "',' or ']'") }
            advance()
            depth -= 1
            return .array(elements)
        }
    }

    private mutating func enter() throws(Failure) {
        depth += 1
        guard depth <= JSONParser.maximumDepth else {
            throw fail("nesting deeper than \(JSONParser.maximumDepth) levels")
        }
    }

    private mutating func literal(_ word: String) throws(Failure) {
        for expected in word.utf8 {
            guard peek() == expected else { throw fail(expecting: "'\(word)'") }
            advance()
        }
    }

    private mutating func parseNumber() throws(Failure) -> String {
        let start = index
        if peek() == UInt8(ascii: "-") { advance() }
        guard let first = peek(), isDigit(first) else { throw fail(expecting: "a digit") }
        advance()
        if first == UInt8(ascii: "0"), let next = peek(), isDigit(next) {
            throw fail("leading zeros are not allowed in numbers")
        }
        while let byte = peek(), isDigit(byte) { advance() }
        if peek() == UInt8(ascii: ".") {
            advance()
            guard let byte = peek(), isDigit(byte) else { throw fail(expecting: "a digit after '.'") }
            while let byte = peek(), isDigit(byte) { advance() }
        }
        if peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E") {
            advance()
            if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") { advance() }
            guard let byte = peek(), isDigit(byte) else { throw fail(expecting: "a digit in the exponent") }
            while let byte = peek(), isDigit(byte) { advance() }
        }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    // MARK: - Cursor

    func peek() -> UInt8? { index < bytes.count ? bytes[index] : nil }

    mutating func advance() {
        let byte = bytes[index]
        index += 1
        if byte == 0x0A {
            line += 1
            column = 1
        } else if byte & 0xC0 != 0x80 {
            column += 1
        }
    }

    private mutating func skipWhitespace() {
        while let byte = peek(), byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { advance() }
    }

    private func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    func fail(_ message: String) -> Failure { Failure(line: line, column: column, message: message) }

    func fail(expecting what: String) -> Failure {
        guard let byte = peek() else { return fail("unexpected end of file, expected \(what)") }
        return fail("unexpected character \(describe(byte)), expected \(what)")
    }

    /// `'x'` for a printable ASCII byte, `0x09` otherwise.
    func describe(_ byte: UInt8) -> String {
        byte >= 0x20 && byte < 0x7F ? "'\(describeBare(byte))'" : describeBare(byte)
    }

    func describeBare(_ byte: UInt8) -> String {
        if byte >= 0x20 && byte < 0x7F { return String(UnicodeScalar(byte)) }
        let hex = String(byte, radix: 16, uppercase: true)
        return "0x" + (hex.count == 1 ? "0" + hex : hex)
    }

    /// The position of the first byte that is not valid UTF-8.
    private mutating func failureAtInvalidUTF8() -> Failure {
        var start = index
        while start < bytes.count {
            let lead = bytes[start]
            let length: Int
            switch lead {
            case 0x00..<0x80: length = 1
            case 0xC2..<0xE0: length = 2
            case 0xE0..<0xF0: length = 3
            case 0xF0..<0xF5: length = 4
            default: length = 0
            }
            if length == 0 || start + length > bytes.count
                || String(validating: bytes[start..<start + length], as: UTF8.self) == nil
            {
                break
            }
            while index < start + length { advance() }
            start = index
        }
        return fail("invalid UTF-8 byte \(describe(bytes[min(start, bytes.count - 1)]))")
    }
}
