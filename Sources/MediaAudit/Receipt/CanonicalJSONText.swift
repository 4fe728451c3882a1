/// JSON text written the canonical way Python's `json.dumps(value, sort_keys=True, separators=(",", ":"))` writes it
/// (with its default `ensure_ascii`): members sorted by key, no whitespace, `"` `\\` and control characters escaped
/// (`\\n`, `\\u001f`), every non-ASCII character as `\\uXXXX` (lower-case hex, UTF-16). So a receipt's signed bytes can
/// be rebuilt from its parsed JSON by mediactl and by a few lines of Python alike.
enum CanonicalJSONText {
    /// A JSON string literal.
    static func string(_ text: String) -> String {
        var out = "\""
        for unit in text.utf16 {
            switch unit {
            case 0x22: out += "\\\""
            case 0x5C: out += "\\\\"
            case 0x0A: out += "\\n"
            case 0x0D: out += "\\r"
            case 0x09: out += "\\t"
            case 0x08: out += "\\b"
            case 0x0C: out += "\\f"
            case 0x20...0x7E: out.unicodeScalars.append(Unicode.Scalar(UInt8(unit)))
            default:
                let hex = String(unit, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            }
        }
        return out + "\""
    }

    /// An object of already-written member values, sorted by key.
    static func object(_ members: [(String, String)]) -> String {
        "{" + members.sorted { Array($0.0.utf8).lexicographicallyPrecedes(Array($1.0.utf8)) }
            .map { string($0.0) + ":" + $0.1 }.joined(separator: ",") + "}"
    }

    /// An array of already-written values.
    static func array(_ values: [String]) -> String { "[" + values.joined(separator: ",") + "]" }
}
