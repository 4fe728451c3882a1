import MediaCore
extension HTTPRequestParser {
    /// RFC 9112 §3: `method SP request-target SP HTTP-version`, single spaces, token method,
    /// visible-ASCII target, `HTTP/DIGIT.DIGIT` version (1.0 and 1.1 accepted, others → 505).
    mutating func parseRequestLine(_ line: ArraySlice<UInt8>) -> HTTPParseError? {
        if line.contains(ASCII.cr) { return .badRequest(.bareCarriageReturn, "bare CR in request line") }
        guard let firstSpace = line.firstIndex(of: ASCII.space) else { return malformedRequestLine() }
        let method = line[line.startIndex..<firstSpace]
        guard !method.isEmpty, method.allSatisfy(ASCII.isTChar) else { return malformedRequestLine() }
        let rest = line[(firstSpace + 1)...]
        guard let secondSpace = rest.firstIndex(of: ASCII.space) else { return malformedRequestLine() }
        let target = rest[rest.startIndex..<secondSpace]
        guard !target.isEmpty, target.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else { return malformedRequestLine() }
        let version = Array(rest[(secondSpace + 1)...])
        guard version.count == 8, version[0..<5].elementsEqual("HTTP/".utf8), ASCII.isDigit(version[5]),
            version[6] == UInt8(ascii: "."), ASCII.isDigit(version[7])
        else { return malformedRequestLine() }
        let parsed = HTTPVersion(major: Int(version[5] - 0x30), minor: Int(version[7] - 0x30))
        guard parsed == .http1_1 || parsed == .http1_0 else {
            return HTTPParseError(
                code: .unsupportedVersion, status: 505, message: "HTTP version \(parsed) is not supported")
        }
        pending.method = HTTPMethod(String(decoding: method, as: UTF8.self))
        pending.target = String(decoding: target, as: UTF8.self)
        pending.version = parsed
        return nil
    }

    func malformedRequestLine() -> HTTPParseError {
        .badRequest(.malformedRequestLine, "malformed request line")
    }

    /// RFC 9112 §5: `field-name ":" OWS field-value OWS`; obs-fold and whitespace before the colon
    /// are refused, as are NUL, bare CR and other control characters in the value (RFC 9110 §5.5). A value
    /// with obs-text is read as ISO-8859-1 (``FieldValueOctets``), so its bytes survive unchanged.
    func parseFieldLine(_ line: ArraySlice<UInt8>) -> Result<HTTPFields.Field, HTTPParseError> {
        if ASCII.isWhitespace(line[line.startIndex]) {
            return .failure(.badRequest(.obsoleteLineFolding, "obsolete line folding in header section"))
        }
        guard let colon = line.firstIndex(of: ASCII.colon) else {
            if line.contains(ASCII.cr) { return .failure(.badRequest(.bareCarriageReturn, "bare CR in field line")) }
            return .failure(.badRequest(.invalidFieldName, "field line without a colon"))
        }
        let name = line[line.startIndex..<colon]
        guard !name.isEmpty, name.allSatisfy(ASCII.isTChar) else {
            return .failure(.badRequest(.invalidFieldName, "field name is not a token"))
        }
        if name.contains(ASCII.underscore), !(configuration.underscoreNames?.allows(name) ?? false) {
            return .failure(.badRequest(.invalidFieldName, "field name with '_' (CGI-style origins read it as '-')"))
        }
        var start = colon + 1, end = line.endIndex
        while start < end && ASCII.isWhitespace(line[start]) { start += 1 }
        while end > start && ASCII.isWhitespace(line[end - 1]) { end -= 1 }
        let value = line[start..<end]
        var hasNonASCII = false
        for byte in value where byte < 0x20 || byte >= 0x7F {
            if byte == ASCII.tab { continue }
            if byte >= 0x80 { hasNonASCII = true; continue }
            if byte == 0 { return .failure(.badRequest(.invalidFieldValue, "NUL in field value")) }
            if byte == ASCII.cr { return .failure(.badRequest(.bareCarriageReturn, "bare CR in field line")) }
            return .failure(.badRequest(.invalidFieldValue, "control character in field value"))
        }
        return .success(HTTPFields.Field(
            name: String(decoding: name, as: UTF8.self), value: FieldValueOctets.decode(value, hasNonASCII: hasNonASCII)))
    }

    /// At the end of the header section: checks `Host`, decides keep-alive (RFC 9112 §9.3) and the
    /// body framing (RFC 9112 §6.1–6.3), then moves to `.body`, `.chunkSize` or stays complete
    /// (`.requestLine`).
    mutating func finishHead() -> HTTPParseError? {
        var hostCount = 0
        var hostValue = ""
        var contentLengths: [String] = []
        var transferCodings: [String] = []
        var connectionTokens: [String] = []
        var expectsContinue = false
        for field in pending.headerFields {
            if HTTPFields.namesEqual(field.name, "Host") {
                hostCount += 1
                hostValue = field.value
            } else if HTTPFields.namesEqual(field.name, "Content-Length") {
                contentLengths.append(field.value)
            } else if HTTPFields.namesEqual(field.name, "Transfer-Encoding") {
                transferCodings += Self.lowercasedTokens(field.value)
            } else if HTTPFields.namesEqual(field.name, "Connection") {
                connectionTokens += Self.lowercasedTokens(field.value)
            } else if HTTPFields.namesEqual(field.name, "Expect") {
                expectsContinue = Self.lowercasedTokens(field.value).contains("100-continue")
            }
        }
        let isHTTP11 = pending.version == .http1_1
        if isHTTP11 ? hostCount != 1 : hostCount > 1 {
            return .badRequest(.invalidHost, "request without exactly one Host field")
        }
        if hostCount == 1 && !Self.isHost(hostValue) {
            return .badRequest(.invalidHost, "Host is not uri-host[:port]")
        }
        pending.keepAlive =
            isHTTP11 ? !connectionTokens.contains("close") : connectionTokens.contains("keep-alive")

        if !transferCodings.isEmpty || pending.headerFields.contains(.transferEncoding) {
            if !contentLengths.isEmpty {
                return .badRequest(.conflictingFraming, "both Content-Length and Transfer-Encoding")
            }
            if !isHTTP11 {
                return .badRequest(.invalidTransferEncoding, "Transfer-Encoding in an HTTP/1.0 request")
            }
            guard transferCodings.last == "chunked", !transferCodings.dropLast().contains("chunked") else {
                return .badRequest(.invalidTransferEncoding, "chunked is not the final transfer coding")
            }
            if transferCodings.count > 1 {
                return HTTPParseError(
                    code: .unsupportedTransferEncoding, status: 501, message: "unsupported transfer coding")
            }
            pending.hasBody = true
            continuePending = expectsContinue
            state = .chunkSize
            return nil
        }
        if !contentLengths.isEmpty {
            let length: Int
            switch parseContentLength(contentLengths) {
            case .success(let value): length = value
            case .failure(let error): return error
            }
            pending.hasBody = true
            if length > 0 {
                pending.body.reserveCapacity(min(length, 1 << 20))
                continuePending = expectsContinue && isHTTP11
                state = .body(remaining: length)
                return nil
            }
        }
        state = .requestLine
        return nil
    }

    /// RFC 3986 §3.2.2–3.2.3 `uri-host [ ":" port ]`: a non-empty reg-name (unreserved, sub-delims, `%XX`), an IPv4
    /// address, or an IP-literal in brackets; the port 0 to 5 digits.
    static func isHost(_ value: String) -> Bool {
        var value = value
        // The UTF-8 in place (no copy for a native string): this runs for every request.
        return value.withUTF8 { isHost(bytes: $0) }
    }

    static func isHost(bytes buffer: UnsafeBufferPointer<UInt8>) -> Bool {
        var bytes = buffer[...]
        guard !bytes.isEmpty else { return false }
        if bytes.first == UInt8(ascii: "[") {
            guard let close = bytes.firstIndex(of: UInt8(ascii: "]")), close > bytes.startIndex + 1 else { return false }
            let literal = bytes[(bytes.startIndex + 1)..<close]
            guard literal.allSatisfy({ ASCII.hexValue($0) != nil || $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: ".") })
            else { return false }
            bytes = bytes[(close + 1)...]
        } else {
            let end = bytes.firstIndex(of: UInt8(ascii: ":")) ?? bytes.endIndex
            let name = bytes[..<end]
            guard !name.isEmpty else { return false }
            var index = name.startIndex
            while index < name.endIndex {
                let byte = name[index]
                if byte == UInt8(ascii: "%") {
                    guard index + 2 < name.endIndex, ASCII.hexValue(name[index + 1]) != nil, ASCII.hexValue(name[index + 2]) != nil
                    else { return false }
                    index += 3
                    continue
                }
                switch byte {
                case 0x41...0x5A, 0x61...0x7A, 0x30...0x39, UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"),
                     UInt8(ascii: "!"), UInt8(ascii: "$"), UInt8(ascii: "&"), UInt8(ascii: "'"), UInt8(ascii: "("), UInt8(ascii: ")"),
                     UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "="):
                    index += 1
                default:
                    return false
                }
            }
            bytes = bytes[end...]
        }
        guard !bytes.isEmpty else { return true }
        guard bytes.first == UInt8(ascii: ":") else { return false }
        let port = bytes.dropFirst()
        return port.count <= 5 && port.allSatisfy(ASCII.isDigit)
    }

    /// RFC 9112 §6.3, strictly: one `Content-Length` line holding one 1*DIGIT value (no list, no repeated line).
    func parseContentLength(_ lines: [String]) -> Result<Int, HTTPParseError> {
        guard lines.count == 1 else {
            return .failure(.badRequest(.invalidContentLength, "several Content-Length fields"))
        }
        if lines[0].utf8.contains(UInt8(ascii: ",")) {
            return .failure(.badRequest(.invalidContentLength, "a Content-Length list"))
        }
        var result: Int?
        for line in lines {
            for member in line.utf8.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false) {
                var digits = member[...]
                while let first = digits.first, ASCII.isWhitespace(first) { digits = digits.dropFirst() }
                while let last = digits.last, ASCII.isWhitespace(last) { digits = digits.dropLast() }
                guard !digits.isEmpty, digits.allSatisfy(ASCII.isDigit) else {
                    return .failure(.badRequest(.invalidContentLength, "invalid Content-Length"))
                }
                let significant = digits.drop { $0 == UInt8(ascii: "0") }
                let value: Int
                if significant.count > 18 {
                    value = Int.max
                } else {
                    value = significant.reduce(0) { $0 * 10 + Int($1 - 0x30) }
                }
                if let existing = result, existing != value {
                    return .failure(.badRequest(.invalidContentLength, "conflicting Content-Length values"))
                }
                result = value
            }
        }
        let length = result ?? 0
        if length > configuration.maxBodyBytes { return .failure(bodyTooLarge()) }
        return .success(length)
    }

    func bodyTooLarge() -> HTTPParseError {
        HTTPParseError(
            code: .bodyTooLarge, status: 413, message: "body longer than \(configuration.maxBodyBytes) bytes")
    }
}
