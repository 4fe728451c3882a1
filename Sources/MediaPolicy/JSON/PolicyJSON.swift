/// A parsed JSON value that keeps what policy validation needs and `JSONSerialization` loses:
/// object member order, repeated keys, the exact number lexeme, and booleans distinct from numbers.
enum PolicyJSON: Equatable, Sendable {
    /// One object member, in document order.
    struct Member: Equatable, Sendable {
        var key: String
        var value: PolicyJSON
    }

    case null
    case bool(Bool)
    /// The number exactly as written (RFC 8259 §6 grammar), e.g. `-1`, `1.5e3`.
    case number(String)
    case string(String)
    case array([PolicyJSON])
    case object([Member])

    /// "a string", "an integer", …: the kind of value, for error messages.
    var typeName: String {
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
    var rendered: String {
        switch self {
        case .null: return "null"
        case .bool(let value): return value ? "true" : "false"
        case .number(let text): return text
        case .string(let text): return PolicyJSON.quote(text)
        case .array: return "[…]"
        case .object: return "{…}"
        }
    }

    /// `text` as a JSON string literal, cut at 80 characters with `…`.
    static func quote(_ text: String) -> String {
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
