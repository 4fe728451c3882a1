import MediaSigning

extension RequestTarget {
    /// Refuses a raw byte that may not appear unencoded in a target (shared by path and query).
    static func checkRaw(_ byte: UInt8, at index: Int, in part: String) throws(RoutingError) {
        switch byte {
        case 0x00: throw RoutingError(.nulByte, "NUL byte in the \(part) at byte \(index)")
        case 0x01...0x1F, 0x7F: throw RoutingError(.controlCharacter, "control character 0x\(hex(byte)) in the \(part) at byte \(index)")
        case UInt8(ascii: "\\"): throw RoutingError(.backslash, "backslash in the \(part) at byte \(index)")
        case 0x80...0xFF, UInt8(ascii: " "), UInt8(ascii: "\""), UInt8(ascii: "<"), UInt8(ascii: ">"),
             UInt8(ascii: "#"), UInt8(ascii: "^"), UInt8(ascii: "`"), UInt8(ascii: "{"), UInt8(ascii: "|"),
             UInt8(ascii: "}"):
            throw RoutingError(.invalidCharacter, "byte 0x\(hex(byte)) must be percent-encoded in the \(part) at byte \(index)")
        default: return
        }
    }

    /// Whether ``checkRaw(_:at:in:)`` accepts `byte` (the same sets, without throwing).
    @inline(__always)
    static func isAcceptedRaw(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x00...0x1F, 0x7F, UInt8(ascii: "\\"), 0x80...0xFF, UInt8(ascii: " "), UInt8(ascii: "\""), UInt8(ascii: "<"),
             UInt8(ascii: ">"), UInt8(ascii: "#"), UInt8(ascii: "^"), UInt8(ascii: "`"), UInt8(ascii: "{"), UInt8(ascii: "|"),
             UInt8(ascii: "}"):
            false
        default: true
        }
    }

    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 0x30...0x39: byte - 0x30
        case 0x41...0x46: byte - 0x41 + 10
        case 0x61...0x66: byte - 0x61 + 10
        default: nil
        }
    }

    /// The byte encoded by `%XY` at `index`, or `bad-percent-encoding`.
    static func percentDecoded(_ bytes: ArraySlice<UInt8>, at index: Int, in part: String) throws(RoutingError) -> UInt8 {
        guard index + 2 < bytes.endIndex, let high = hexValue(bytes[index + 1]), let low = hexValue(bytes[index + 2]) else {
            throw RoutingError(.badPercentEncoding, "'%' without two hex digits in the \(part) at byte \(index)")
        }
        return high << 4 | low
    }

    /// Validates a raw query: allowed bytes and well-formed percent-encoding; `%00` and encoded
    /// control characters are refused too. The query stays encoded.
    static func checkQuery(_ query: ArraySlice<UInt8>) throws(RoutingError) {
        var index = query.startIndex
        while index < query.endIndex {
            let byte = query[index]
            if byte == UInt8(ascii: "%") {
                let value = try percentDecoded(query, at: index, in: "query")
                if value == 0 { throw RoutingError(.nulByte, "encoded NUL in the query at byte \(index)") }
                if value < 0x20 || value == 0x7F {
                    throw RoutingError(.controlCharacter, "encoded control character 0x\(hex(value)) in the query at byte \(index)")
                }
                index += 3
            } else {
                try checkRaw(byte, at: index, in: "query")
                index += 1
            }
        }
    }

    /// Decodes one raw path segment, refusing encoded `/`, `\`, NUL and controls, and non-UTF-8.
    static func decode(segment raw: ArraySlice<UInt8>) throws(RoutingError) -> String {
        // Without `%` the segment is its own decoding: every byte checkRaw accepts is printable ASCII.
        if raw.firstIndex(of: UInt8(ascii: "%")) == nil {
            // One pass with a plain predicate; only a refused segment runs the throwing checks (for the error).
            if raw.allSatisfy(isAcceptedRaw) { return String(decoding: raw, as: UTF8.self) }
            var index = raw.startIndex
            while index < raw.endIndex {
                try checkRaw(raw[index], at: index, in: "path")
                index += 1
            }
            return String(decoding: raw, as: UTF8.self)
        }
        var out: [UInt8] = []
        out.reserveCapacity(raw.count)
        var index = raw.startIndex
        while index < raw.endIndex {
            let byte = raw[index]
            if byte == UInt8(ascii: "%") {
                let value = try percentDecoded(raw, at: index, in: "path")
                switch value {
                case UInt8(ascii: "/"): throw RoutingError(.encodedSlash, "encoded slash in the path at byte \(index)")
                case UInt8(ascii: "\\"): throw RoutingError(.backslash, "encoded backslash in the path at byte \(index)")
                case 0x00: throw RoutingError(.nulByte, "encoded NUL in the path at byte \(index)")
                case 0x01...0x1F, 0x7F:
                    throw RoutingError(.controlCharacter, "encoded control character 0x\(hex(value)) in the path at byte \(index)")
                default: out.append(value)
                }
                index += 3
            } else {
                try checkRaw(byte, at: index, in: "path")
                out.append(byte)
                index += 1
            }
        }
        guard let text = String(validating: out, as: UTF8.self) else {
            throw RoutingError(.invalidUTF8, "a decoded path segment is not UTF-8")
        }
        return text
    }

    /// Percent-encodes a decoded segment for an upstream URL: unreserved characters, sub-delims,
    /// `:` and `@` stay (RFC 3986 §3.3 `pchar`); every other byte becomes `%XX` (upper case).
    public static func encode(segment: String) -> String {
        // Most segments need no escaping: return them as they are, without a copy.
        var text = segment
        if text.withUTF8({ bytes in
            for byte in bytes where !isUnreservedOrSubDelimiter(byte) { return false }
            return true
        }) { return segment }
        var out: [UInt8] = []
        out.reserveCapacity(segment.utf8.count * 3)
        for byte in segment.utf8 {
            if isUnreservedOrSubDelimiter(byte) {
                out.append(byte)
            } else {
                out.append(UInt8(ascii: "%"))
                out.append(upperHexDigit(byte >> 4))
                out.append(upperHexDigit(byte & 0x0F))
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The upper-case hex digit of a nibble (RFC 3986 §2.1 recommends upper case).
    @inline(__always)
    static func upperHexDigit(_ nibble: UInt8) -> UInt8 { nibble < 10 ? 0x30 + nibble : 0x41 + nibble - 10 }

    /// RFC 3986 `pchar` bytes that stay literal in a segment: ALPHA, DIGIT, `-._~!$&'()*+,;=:@`
    /// (``MediaSigning/CanonicalPath/isLiteral(_:)``, which signed URLs are checked against).
    @inline(__always)
    static func isUnreservedOrSubDelimiter(_ byte: UInt8) -> Bool { CanonicalPath.isLiteral(byte) }
}
