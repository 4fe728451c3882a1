/// Syntax checks for names, mounts, origins and Cache-Control values in policy files.
enum PolicyText {
    /// 1 to 64 of `a-z 0-9 -`, not starting with `-`.
    static func isName(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard !bytes.isEmpty, bytes.count <= PolicyFormat.maximumNameLength, bytes[0] != UInt8(ascii: "-") else { return false }
        return bytes.allSatisfy { isLowerAlnum($0) || $0 == UInt8(ascii: "-") }
    }

    /// A field name: 1 to 64 RFC 9110 §5.6.2 token characters.
    static func isFieldName(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard !bytes.isEmpty, bytes.count <= PolicyFormat.maximumNameLength else { return false }
        return bytes.allSatisfy { isTokenCharacter($0) }
    }

    /// A serialized origin as browsers send it in `Origin` (RFC 6454 §6.1): `http://` or `https://`, a host of
    /// lower-case letters, digits, `-` and `.` (or a bracketed IPv6 literal), an optional `:port` of 1–5 digits,
    /// nothing else; at most 253 characters.
    static func isSerializedOrigin(_ text: String) -> Bool {
        let rest: Substring
        if text.hasPrefix("https://") { rest = text.dropFirst(8) } else if text.hasPrefix("http://") { rest = text.dropFirst(7) } else { return false }
        guard !rest.isEmpty, text.utf8.count <= 253 else { return false }
        var host = rest, port: Substring?
        if rest.hasPrefix("[") {
            guard let close = rest.firstIndex(of: "]") else { return false }
            host = rest[...close]
            let after = rest[rest.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { return false }
                port = after.dropFirst()
            }
            guard host.dropFirst().dropLast().allSatisfy({ $0.isHexDigit || $0 == ":" || $0 == "." }), host.count > 2 else { return false }
        } else {
            if let colon = rest.firstIndex(of: ":") {
                host = rest[..<colon]
                port = rest[rest.index(after: colon)...]
            }
            guard !host.isEmpty, host.utf8.allSatisfy({ isLowerAlnum($0) || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".") })
            else { return false }
        }
        if let port {
            guard (1...5).contains(port.count), port.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return false }
        }
        return true
    }

    /// 1 to 64 unreserved URI characters (RFC 3986 §2.3).
    static func isQueryName(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard !bytes.isEmpty, bytes.count <= PolicyFormat.maximumNameLength else { return false }
        return bytes.allSatisfy { isUnreserved($0) }
    }

    /// The lower-cased directive names of a Cache-Control value, or `nil` when it is empty, longer
    /// than 1024 characters, has characters outside visible ASCII/SP/HTAB, or a name that is not a token.
    static func directiveNames(_ text: String) -> [String]? {
        let bytes = Array(text.utf8)
        guard bytes.count <= PolicyFormat.maximumTextLength,
              bytes.allSatisfy({ ($0 >= 0x20 && $0 < 0x7F) || $0 == 0x09 }) else { return nil }
        var elements: [Substring] = []
        var start = text.startIndex
        var inQuotes = false
        var index = text.startIndex
        while index < text.endIndex {
            let char = text[index]
            if char == "\"" { inQuotes.toggle() }
            if char == ",", !inQuotes {
                elements.append(text[start..<index])
                start = text.index(after: index)
            }
            index = text.index(after: index)
        }
        guard !inQuotes else { return nil }
        elements.append(text[start...])
        var names: [String] = []
        for element in elements where !element.trimmingSpaces().isEmpty {
            let name = element.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)[0].trimmingSpaces()
            guard !name.isEmpty, name.utf8.allSatisfy(isTokenCharacter) else { return nil }
            names.append(name.lowercased())
        }
        return names.isEmpty ? nil : names
    }

    /// Why `mount` is not a valid mount, or `nil` when it is.
    static func mountProblem(_ mount: String) -> String? {
        let bytes = Array(mount.utf8)
        guard bytes.first == UInt8(ascii: "/"), bytes.last == UInt8(ascii: "/") else {
            return "does not start and end with \"/\""
        }
        guard bytes.count <= PolicyFormat.maximumTextLength else { return "is longer than 1024 characters" }
        guard bytes.allSatisfy({ isUnreserved($0) || isSubDelimiter($0) || $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: "@") }) else {
            return "contains a character that needs percent-encoding (space, ?, #, %, non-ASCII…)"
        }
        let segments = mount.split(separator: "/", omittingEmptySubsequences: false).dropFirst().dropLast()
        if mount != "/", segments.contains(where: { $0.isEmpty || $0 == "." || $0 == ".." }) {
            return "contains an empty, \".\" or \"..\" segment"
        }
        if mount.hasPrefix(PolicyFormat.reservedMount) { return "is reserved for mediactl's own endpoints" }
        return nil
    }

    /// Why `origin` is not a valid origin base URL, or `nil` when it is.
    static func originProblem(_ origin: String) -> String? {
        let lower = origin.lowercased()
        let rest: Substring
        if lower.hasPrefix("http://") {
            rest = origin.dropFirst(7)
        } else if lower.hasPrefix("https://") {
            rest = origin.dropFirst(8)
        } else {
            return "is not an http or https URL"
        }
        guard origin.utf8.count <= PolicyFormat.maximumTextLength else { return "is longer than 1024 characters" }
        guard origin.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
            return "contains a character that needs percent-encoding (space, control, non-ASCII)"
        }
        if origin.contains("#") { return "has a fragment" }
        if origin.contains("?") { return "has a query" }
        let authority = rest.prefix { $0 != "/" }
        let path = rest.dropFirst(authority.count)
        if authority.contains("@") { return "has user info" }
        var host = authority
        var port: Substring?
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { return "has an invalid host" }
            host = authority[...close]
            let afterHost = authority[authority.index(after: close)...]
            if !afterHost.isEmpty {
                guard afterHost.hasPrefix(":") else { return "has an invalid host" }
                port = afterHost.dropFirst()
            }
            guard host.dropFirst().dropLast().allSatisfy({ $0.isHexDigit || $0 == ":" || $0 == "." }), host.count > 2 else {
                return "has an invalid host"
            }
        } else {
            if let colon = authority.firstIndex(of: ":") {
                host = authority[..<colon]
                port = authority[authority.index(after: colon)...]
            }
            guard !host.isEmpty else { return "has no host" }
            guard host.utf8.allSatisfy({ isLowerAlnum($0) || ($0 >= 0x41 && $0 <= 0x5A) || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".") }) else {
                return "has an invalid host"
            }
        }
        if let port {
            guard !port.isEmpty, port.count <= 5, let number = Int(port), (1...65_535).contains(number) else {
                return "has an invalid port"
            }
        }
        guard path.hasSuffix("/") else { return "has a path that does not end with \"/\"" }
        return nil
    }

    private static func isLowerAlnum(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
    }

    private static func isUnreserved(_ byte: UInt8) -> Bool {
        isLowerAlnum(byte) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
            || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "~")
    }

    private static func isSubDelimiter(_ byte: UInt8) -> Bool {
        "!$&'()*+,;=".utf8.contains(byte)
    }

    /// RFC 9110 §5.6.2 tchar.
    private static func isTokenCharacter(_ byte: UInt8) -> Bool {
        isUnreserved(byte) || "!#$%&'*+^`|".utf8.contains(byte)
    }
    /// `url` with the userinfo of its authority replaced by `<redacted>` (`ftp://<redacted>@host/`),
    /// or unchanged when it has none.
    static func redactingUserinfo(_ url: String) -> String {
        guard let schemeEnd = url.range(of: "://") else { return url }
        let rest = url[schemeEnd.upperBound...]
        let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        guard let at = authority.lastIndex(of: "@") else { return url }
        return String(url[..<schemeEnd.upperBound]) + "<redacted>" + String(url[at...])
    }
}

extension Substring {
    func trimmingSpaces() -> Substring {
        var result = self
        while let first = result.first, first == " " || first == "\t" { result = result.dropFirst() }
        while let last = result.last, last == " " || last == "\t" { result = result.dropLast() }
        return result
    }
}
