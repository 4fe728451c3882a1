/// A Structured Field Dictionary (RFC 8941 §3.2), parsed as §4.2.2 says, for targeted cache-control
/// fields (RFC 9213 §2.1).
///
/// One leniency, for RFC 9213 directive names: upper-case letters in a key are read as lower case
/// (`MaX-aGe=60` is `max-age=60`). Anything else that §4.2 rejects makes the whole dictionary invalid.
/// Parameters are parsed and checked but not kept (no cache directive defines any).
public struct StructuredDictionary: Sendable, Hashable {
    /// A member's value: an Item (§3.3) or an Inner List of Items (§3.1.1).
    public indirect enum Value: Sendable, Hashable {
        /// An Integer (§3.3.1): at most 15 digits, optional `-`.
        case integer(Int64)
        /// A Decimal (§3.3.2): at most 12 integer and 3 fractional digits.
        case decimal(Double)
        /// A String (§3.3.3), unescaped.
        case string(String)
        /// A Token (§3.3.4).
        case token(String)
        /// A Byte Sequence (§3.3.5), kept as its base64 text.
        case byteSequence(String)
        /// A Boolean (§3.3.6); a member without `=` is `true`.
        case boolean(Bool)
        /// An Inner List (§3.1.1).
        case innerList([Value])
    }

    /// The members in first-seen order; a repeated key keeps its last value (§4.2.2).
    public private(set) var members: [(key: String, value: Value)]

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.members.elementsEqual(rhs.members) { $0.key == $1.key && $0.value == $1.value }
    }

    public func hash(into hasher: inout Hasher) {
        for member in members { hasher.combine(member.key); hasher.combine(member.value) }
    }

    /// The value of `key` (lower case), or `nil`.
    public subscript(key: String) -> Value? { members.first { $0.key == key }?.value }

    /// Parses `text` (the field's combined value); `nil` when it is not a valid Dictionary.
    public init?(_ text: String) {
        var parser = Parser(bytes: Array(text.utf8))
        guard let members = parser.dictionary() else { return nil }
        self.members = members
    }

    /// The §4.2 parsing algorithms over bytes.
    struct Parser {
        let bytes: [UInt8]
        var index = 0

        init(bytes: [UInt8]) { self.bytes = bytes }

        var current: UInt8? { index < bytes.count ? bytes[index] : nil }

        mutating func skipSpaces() { while current == 0x20 { index += 1 } }

        mutating func skipOWS() { while current == 0x20 || current == 0x09 { index += 1 } }

        mutating func dictionary() -> [(key: String, value: Value)]? {
            skipSpaces()
            var members: [(key: String, value: Value)] = []
            while current != nil {
                guard let key = key() else { return nil }
                let value: Value
                if current == UInt8(ascii: "=") {
                    index += 1
                    guard let parsed = itemOrInnerList() else { return nil }
                    value = parsed
                } else {
                    guard parameters() else { return nil }
                    value = .boolean(true)
                }
                if let existing = members.firstIndex(where: { $0.key == key }) {
                    members[existing].value = value
                } else {
                    members.append((key, value))
                }
                skipOWS()
                guard current != nil else { return members }
                guard current == UInt8(ascii: ",") else { return nil }
                index += 1
                skipOWS()
                guard current != nil else { return nil }   // a trailing comma
            }
            skipSpaces()
            return current == nil ? members : nil
        }

        /// §4.2.3.3, keys read case-insensitively (the one leniency).
        mutating func key() -> String? {
            guard let first = current.map(Self.lower), Self.isLowerAlpha(first) || first == UInt8(ascii: "*") else { return nil }
            var out: [UInt8] = []
            while let byte = current.map(Self.lower),
                  Self.isLowerAlpha(byte) || Self.isDigit(byte) || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
                    || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "*") {
                out.append(byte)
                index += 1
            }
            return String(decoding: out, as: UTF8.self)
        }

        mutating func itemOrInnerList() -> Value? {
            if current == UInt8(ascii: "(") { return innerList() }
            guard let item = bareItem(), parameters() else { return nil }
            return item
        }

        mutating func innerList() -> Value? {
            index += 1
            var items: [Value] = []
            while current != nil {
                skipSpaces()
                if current == UInt8(ascii: ")") {
                    index += 1
                    return parameters() ? .innerList(items) : nil
                }
                guard let item = bareItem(), parameters() else { return nil }
                items.append(item)
                guard current == 0x20 || current == UInt8(ascii: ")") else { return nil }
            }
            return nil
        }

        /// §4.2.3.2: `;key[=value]` repeated; checked, not kept.
        mutating func parameters() -> Bool {
            while current == UInt8(ascii: ";") {
                index += 1
                skipSpaces()
                guard key() != nil else { return false }
                if current == UInt8(ascii: "=") {
                    index += 1
                    guard bareItem() != nil else { return false }
                }
            }
            return true
        }

        mutating func bareItem() -> Value? {
            guard let byte = current else { return nil }
            switch byte {
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return number()
            case UInt8(ascii: "\""): return string()
            case UInt8(ascii: ":"): return byteSequence()
            case UInt8(ascii: "?"): return boolean()
            case UInt8(ascii: "*"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"): return token()
            default: return nil
            }
        }

        /// §4.2.4.
        mutating func number() -> Value? {
            var negative = false
            if current == UInt8(ascii: "-") { negative = true; index += 1 }
            guard let first = current, Self.isDigit(first) else { return nil }
            var digits: [UInt8] = []
            var isDecimal = false
            var fraction = 0
            while let byte = current {
                if Self.isDigit(byte) {
                    digits.append(byte)
                    if isDecimal { fraction += 1 }
                } else if byte == UInt8(ascii: "."), !isDecimal {
                    guard digits.count <= 12 else { return nil }
                    isDecimal = true
                    digits.append(byte)
                } else {
                    break
                }
                index += 1
                if !isDecimal, digits.count > 15 { return nil }
                if isDecimal, digits.count > 16 { return nil }
            }
            let text = String(decoding: digits, as: UTF8.self)
            if !isDecimal {
                guard let value = Int64(text) else { return nil }
                return .integer(negative ? -value : value)
            }
            guard fraction >= 1, fraction <= 3, let value = Double(text) else { return nil }
            return .decimal(negative ? -value : value)
        }

        /// §4.2.5.
        mutating func string() -> Value? {
            index += 1
            var out: [UInt8] = []
            while let byte = current {
                index += 1
                switch byte {
                case UInt8(ascii: "\\"):
                    guard let next = current, next == UInt8(ascii: "\"") || next == UInt8(ascii: "\\") else { return nil }
                    out.append(next)
                    index += 1
                case UInt8(ascii: "\""):
                    return .string(String(decoding: out, as: UTF8.self))
                case 0x20...0x7E:
                    out.append(byte)
                default:
                    return nil
                }
            }
            return nil
        }

        /// §4.2.6.
        mutating func token() -> Value? {
            var out: [UInt8] = []
            while let byte = current, CacheControl.isTokenCharacter(byte) || byte == UInt8(ascii: ":") || byte == UInt8(ascii: "/") {
                out.append(byte)
                index += 1
            }
            return .token(String(decoding: out, as: UTF8.self))
        }

        /// §4.2.7 (the base64 text is checked for its alphabet, not decoded).
        mutating func byteSequence() -> Value? {
            index += 1
            var out: [UInt8] = []
            while let byte = current {
                index += 1
                if byte == UInt8(ascii: ":") { return .byteSequence(String(decoding: out, as: UTF8.self)) }
                guard Self.isLowerAlpha(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) || Self.isDigit(byte)
                        || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "/") || byte == UInt8(ascii: "=") else { return nil }
                out.append(byte)
            }
            return nil
        }

        /// §4.2.8.
        mutating func boolean() -> Value? {
            index += 1
            switch current {
            case UInt8(ascii: "1"): index += 1; return .boolean(true)
            case UInt8(ascii: "0"): index += 1; return .boolean(false)
            default: return nil
            }
        }

        static func lower(_ byte: UInt8) -> UInt8 { (0x41...0x5A).contains(byte) ? byte | 0x20 : byte }
        static func isLowerAlpha(_ byte: UInt8) -> Bool { (0x61...0x7A).contains(byte) }
        static func isDigit(_ byte: UInt8) -> Bool { (0x30...0x39).contains(byte) }
    }
}
