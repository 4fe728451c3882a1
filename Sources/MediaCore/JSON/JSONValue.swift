/// A parsed JSON value (RFC 8259) that keeps what strict validation needs and `JSONSerialization` loses:
/// object member order, repeated keys, the exact number lexeme, and booleans distinct from numbers. The policy
/// files and the admin purge body are read with it (``JSONParser``).
public enum JSONValue: Equatable, Sendable {
    /// One object member, in document order.
    public struct Member: Equatable, Sendable {
        public var key: String
        public var value: JSONValue

        public init(key: String, value: JSONValue) {
            self.key = key
            self.value = value
        }
    }

    case null
    case bool(Bool)
    /// The number exactly as written (RFC 8259 §6 grammar), e.g. `-1`, `1.5e3`.
    case number(String)
    case string(String)
    case array([JSONValue])
    case object([Member])

    /// "a string", "an integer", …: the kind of value, for error messages.
    public var typeName: String {
        switch self {
        case .null: return "null"
        case .bool: return "a boolean"
        case .number(let text): return text.contains(where: { $0 == "." || $0 == "e" || $0 == "E" }) ? "a number" : "an integer"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }

    /// A short JSON rendering for error messages: scalars in full (strings cut at 80 characters),
    /// arrays and objects as `[…]` and `{…}`.
    public var rendered: String {
        switch self {
        case .null: return "null"
        case .bool(let value): return value ? "true" : "false"
        case .number(let text): return text
        case .string(let text): return JSONValue.quote(text)
        case .array: return "[…]"
        case .object: return "{…}"
        }
    }

    /// `text` as a JSON string literal, cut at 80 characters with `…`.
    public static func quote(_ text: String) -> String {
        var out = "\""
        var count = 0
        for scalar in text.unicodeScalars {
            if count == 80 {
                out += "…"
                break
            }
            count += 1
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }
}
