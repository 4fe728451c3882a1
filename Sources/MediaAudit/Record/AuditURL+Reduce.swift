extension AuditURL {
    /// The reduced URL of a plain absolute URL, computed on its bytes, or `nil` when `string` is not
    /// of the plain shape (then ``reducedByURLComponents(_:)`` decides, and may refuse it).
    ///
    /// Plain means: `http://` or `https://` in lower case; a host of letters, digits, `.` and `-`;
    /// an optional port of 1–5 digits without a leading zero, at most 65535; then only unreserved
    /// characters, sub-delimiters, `:`, `@`, `/`, `?` and at most one `#` (no `%`, `[`, `]`,
    /// userinfo or IPv6 literal). For such a URL the result equals the `URLComponents` reduction
    /// (tests compare both): scheme, lower-cased host, port, and the path up to `?`/`#` (`/` when
    /// empty).
    static func reducedQuickly(_ string: String) -> String? {
        var string = string
        return string.withUTF8 { bytes -> String? in
            let count = bytes.count
            var index: Int
            if bytes.starts(with: "http://".utf8) {
                index = 7
            } else if bytes.starts(with: "https://".utf8) {
                index = 8
            } else {
                return nil
            }
            let schemeEnd = index - 3
            let hostStart = index
            while index < count, isHostByte(bytes[index]) { index += 1 }
            let hostEnd = index
            guard hostEnd > hostStart else { return nil }
            var port: Int?
            if index < count, bytes[index] == UInt8(ascii: ":") {
                index += 1
                let portStart = index
                var value = 0
                while index < count, index - portStart < 6, (0x30...0x39).contains(bytes[index]) {
                    value = value * 10 + Int(bytes[index] - 0x30)
                    index += 1
                }
                let digits = index - portStart
                guard (1...5).contains(digits), value <= 65535,
                      !(digits > 1 && bytes[portStart] == UInt8(ascii: "0"))
                else { return nil }
                port = value
            }
            guard index == count || bytes[index] == UInt8(ascii: "/") || bytes[index] == UInt8(ascii: "?")
                    || bytes[index] == UInt8(ascii: "#")
            else { return nil }
            let pathStart = index
            var pathEnd = -1
            var fragments = 0
            while index < count {
                let byte = bytes[index]
                if byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#") {
                    if pathEnd < 0 { pathEnd = index }
                    if byte == UInt8(ascii: "#") {
                        fragments += 1
                        guard fragments == 1 else { return nil }
                    }
                } else if !isPlainByte(byte) {
                    return nil
                }
                index += 1
            }
            if pathEnd < 0 { pathEnd = count }
            var out: [UInt8] = []
            out.reserveCapacity(pathEnd + 8)
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[0..<schemeEnd]))
            out.append(contentsOf: "://".utf8)
            for byte in bytes[hostStart..<hostEnd] {
                out.append(byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte)
            }
            if let port {
                out.append(UInt8(ascii: ":"))
                out.append(contentsOf: String(port).utf8)
            }
            if pathEnd == pathStart {
                out.append(UInt8(ascii: "/"))
            } else {
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[pathStart..<pathEnd]))
            }
            return String(decoding: out, as: UTF8.self)
        }
    }

    private static func isHostByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "-"):
            return true
        default:
            return false
        }
    }

    /// Unreserved, sub-delimiters, `:`, `@` and `/` (RFC 3986 `pchar` without `%`).
    private static func isPlainByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"),
             UInt8(ascii: "!"), UInt8(ascii: "$"), UInt8(ascii: "&"), UInt8(ascii: "'"), UInt8(ascii: "("),
             UInt8(ascii: ")"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: ","), UInt8(ascii: ";"),
             UInt8(ascii: "="), UInt8(ascii: ":"), UInt8(ascii: "@"), UInt8(ascii: "/"):
            return true
        default:
            return false
        }
    }
}
