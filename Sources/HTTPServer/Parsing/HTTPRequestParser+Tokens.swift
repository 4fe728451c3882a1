extension HTTPRequestParser {
    /// Splits a comma-separated list value into trimmed, non-empty, lower-cased tokens.
    /// Used for `Connection`, `Transfer-Encoding` and `Expect` (RFC 9110 §5.6.1).
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
