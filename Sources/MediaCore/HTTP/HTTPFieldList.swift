/// Parsing of comma-separated field values (RFC 9110 §5.6.1) and quoted strings (§5.6.4).
public enum HTTPFieldList {
    /// Splits a list on commas outside quoted strings; each element is trimmed of optional
    /// whitespace (SP, HTAB) and empty elements are dropped.
    ///
    /// `x="a,b", max-age=60` → `["x=\"a,b\"", "max-age=60"]`.
    /// - Complexity: O(n) in the length of `value`.
    public static func split(_ value: Substring) -> [Substring] {
        var out: [Substring] = []
        var start = value.startIndex
        var index = value.startIndex
        var inQuotes = false
        var escaped = false
        while index < value.endIndex {
            let char = value.utf8[index]
            if inQuotes {
                if escaped {
                    escaped = false
                } else if char == UInt8(ascii: "\\") {
                    escaped = true
                } else if char == UInt8(ascii: "\"") {
                    inQuotes = false
                }
            } else if char == UInt8(ascii: "\"") {
                inQuotes = true
            } else if char == UInt8(ascii: ",") {
                let element = trimOWS(value[start..<index])
                if !element.isEmpty { out.append(element) }
                start = value.utf8.index(after: index)
            }
            index = value.utf8.index(after: index)
        }
        let last = trimOWS(value[start..<value.endIndex])
        if !last.isEmpty { out.append(last) }
        return out
    }

    /// Removes leading and trailing SP and HTAB (RFC 9110 §5.6.3 OWS).
    public static func trimOWS(_ value: Substring) -> Substring {
        var lower = value.startIndex, upper = value.endIndex
        let utf8 = value.utf8
        while lower < upper, utf8[lower] == 0x20 || utf8[lower] == 0x09 { lower = utf8.index(after: lower) }
        while upper > lower {
            let before = utf8.index(before: upper)
            guard utf8[before] == 0x20 || utf8[before] == 0x09 else { break }
            upper = before
        }
        return value[lower..<upper]
    }

    /// The content of a quoted string (RFC 9110 §5.6.4), with quoted-pairs unescaped, or `nil`
    /// when `value` is not a complete quoted string.
    public static func unquote(_ value: Substring) -> String? {
        let utf8 = value.utf8
        guard utf8.count >= 2, utf8.first == UInt8(ascii: "\""), utf8.last == UInt8(ascii: "\"") else { return nil }
        var out: [UInt8] = []
        var index = utf8.index(after: utf8.startIndex)
        let end = utf8.index(before: utf8.endIndex)
        while index < end {
            var char = utf8[index]
            if char == UInt8(ascii: "\\") {
                index = utf8.index(after: index)
                guard index < end else { return nil }
                char = utf8[index]
            } else if char == UInt8(ascii: "\"") {
                return nil
            }
            out.append(char)
            index = utf8.index(after: index)
        }
        return String(decoding: out, as: UTF8.self)
    }
}
