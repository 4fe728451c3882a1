/// Case-insensitive lookups over ordered `(name, value)` field lines.
extension Array where Element == (name: String, value: String) {
    /// The combined value of every line named `name` (joined with `", "`, RFC 9110 §5.3), or `nil`.
    /// Names compare ASCII case-insensitively.
    /// - Complexity: O(n) in the number of lines.
    public func fieldValue(_ name: String) -> String? {
        var result: String?
        for line in self where HTTPFieldName.equal(line.name, name) {
            if let existing = result { result = existing + ", " + line.value } else { result = line.value }
        }
        return result
    }

    /// The value of each line named `name`, in order; empty when absent.
    public func fieldValues(_ name: String) -> [String] {
        var result: [String] = []
        for line in self where HTTPFieldName.equal(line.name, name) { result.append(line.value) }
        return result
    }

    /// Whether some line is named `name` (ASCII case-insensitive).
    public func containsField(_ name: String) -> Bool {
        contains { HTTPFieldName.equal($0.name, name) }
    }
}

/// ASCII case-insensitive field name comparison (RFC 9110 §5.1), without allocating.
public enum HTTPFieldName {
    /// Whether `a` and `b` are equal ignoring ASCII case.
    public static func equal(_ a: String, _ b: String) -> Bool {
        let x = a.utf8, y = b.utf8
        guard x.count == y.count else { return false }
        var i = x.startIndex, j = y.startIndex
        while i != x.endIndex {
            if ASCII.lower(x[i]) != ASCII.lower(y[j]) { return false }
            i = x.index(after: i)
            j = y.index(after: j)
        }
        return true
    }

    /// Splits a comma-separated list value into trimmed, non-empty, lower-cased tokens.
    /// Used for `Connection` and `Transfer-Encoding` (RFC 9110 §5.6.1).
    static func lowercasedTokens(_ value: String) -> [String] {
        var tokens: [String] = []
        for part in value.utf8.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: true) {
            var bytes = Array(part)
            while let last = bytes.last, ASCII.isWhitespace(last) { bytes.removeLast() }
            let start = bytes.firstIndex { !ASCII.isWhitespace($0) } ?? bytes.endIndex
            let token = bytes[start...].map(ASCII.lower)
            if !token.isEmpty { tokens.append(String(decoding: token, as: UTF8.self)) }
        }
        return tokens
    }
}
