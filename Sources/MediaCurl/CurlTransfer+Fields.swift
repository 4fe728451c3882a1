import HTTPCaching
import MediaCore
import MediaOrigin

extension CurlTransfer {
    /// Hop-by-hop response fields (RFC 9110 §7.6.1), never passed on; `Proxy-*` names too.
    static let hopByHop: Set<String> = ["connection", "keep-alive", "proxy-connection", "te", "trailer", "transfer-encoding", "upgrade"]

    /// Takes one header line as libcurl delivers it (with its CRLF).
    /// - A status line (`HTTP/…`) starts a new response: the fields of a 1xx interim response never
    ///   reach the final response's.
    /// - The blank line ends the head. An interim head (1xx other than 101) goes to ``interim`` with its
    ///   own fields (hop-by-hop ones removed), then its fields are dropped. For a final response with
    ///   `Content-Length` over ``MediaService/OriginRequest/maxBodyBytes`` (not `HEAD`, 204 or 304, nor a coded body
    ///   libcurl decodes, nor one with `Transfer-Encoding`, whose length the coding determines, RFC 9112
    ///   §6.3) the transfer is refused at once.
    /// - Lines after the final head (trailers) are ignored; obs-fold continuation lines are
    ///   joined to the previous value with a space (RFC 9112 §5.2).
    /// - Returns: false to abort the transfer.
    func receiveHeaderLine(_ raw: UnsafeRawBufferPointer) -> Bool {
        var end = raw.count
        while end > 0, raw[end - 1] == 0x0A || raw[end - 1] == 0x0D { end -= 1 }
        let line = UnsafeRawBufferPointer(rebasing: raw[0..<end])
        lastProgress = .now   // head bytes moved (the progress callback's counts are body bytes only)
        if line.count >= 5, line[0] == UInt8(ascii: "H"), line[1] == UInt8(ascii: "T"), line[2] == UInt8(ascii: "T"),
           line[3] == UInt8(ascii: "P"), line[4] == UInt8(ascii: "/") {
            status = Self.statusCode(line) ?? 0
            fields.removeAll(keepingCapacity: true)
            announcedLength = nil
            headEnded = false
            return true
        }
        if headEnded { return true }
        if line.isEmpty {
            guard status >= 200 else {
                if status >= 100, status != 101, let interim {
                    interim(OriginInterimResponse(status: HTTPStatus(code: status), fields: Self.endToEnd(HTTPFields(lines: fields))))
                }
                fields.removeAll(keepingCapacity: true)
                return true
            }
            headEnded = true
            // HEAD, 204 and 304 carry no body whatever Content-Length says (RFC 9110 §8.6). When
            // libcurl decodes a content coding, Content-Length counts coded bytes while the limit
            // bounds decoded ones: the write callback alone enforces it then. Transfer-Encoding
            // overrides Content-Length (RFC 9112 §6.3 rule 3; libcurl ignores it then too).
            if !isHead, status != 204, status != 304, !isDecodedCoding, !hasTransferCoding, let announced = announcedLength {
                if announced > request.maxBodyBytes {
                    abort = OriginError(.tooLarge, "Content-Length \(announced) exceeds \(request.maxBodyBytes) bytes")
                    return false
                }
                // One allocation for a body of announced length: no regrowth copies.
                body.reserveCapacity(announced)
            }
            return true
        }
        if line[0] == 0x20 || line[0] == 0x09 {
            if !fields.isEmpty {
                let more = Self.trimmed(line)
                fields[fields.count - 1].value += fields[fields.count - 1].value.isEmpty ? more : " " + more
            }
            return true
        }
        guard let colon = line.firstIndex(of: UInt8(ascii: ":")), colon > 0 else { return true }
        // A field name that is not a token (a CR in it, say) is dropped: it could split the head sent downstream.
        guard line[0..<colon].allSatisfy(CurlEngine.isTokenByte) else { return true }
        let name = String(decoding: UnsafeRawBufferPointer(rebasing: line[0..<colon]), as: UTF8.self)
        let value = Self.trimmed(UnsafeRawBufferPointer(rebasing: line[(colon + 1)...]))
        if HTTPFields.namesEqual(name, "Content-Length") { announcedLength = Int(value) }
        fields.append(HTTPFields.Field(name: name, value: value))
        return true
    }

    /// Whether libcurl decodes this response's body: ``MediaService/OriginRequest/decodesContentCoding`` is set
    /// and the head names a content coding other than `identity`.
    var isDecodedCoding: Bool {
        request.decodesContentCoding && fields.contains { field in
            HTTPFields.namesEqual(field.name, "Content-Encoding")
                && !field.value.isEmpty && field.value.lowercased() != "identity"
        }
    }

    /// Whether the head has a `Transfer-Encoding` field.
    var hasTransferCoding: Bool {
        fields.contains { HTTPFields.namesEqual($0.name, "Transfer-Encoding") }
    }

    /// The response fields as the caller should see them: hop-by-hop fields, `Proxy-*` and the
    /// names listed in `Connection` removed (``endToEnd(_:)``), `Content-Length` except for `HEAD`, and
    /// `Content-Encoding` when libcurl decoded the body (``MediaService/OriginRequest/decodesContentCoding``:
    /// a transfer that ends well decoded every listed coding).
    func visibleFields() -> HTTPFields {
        var result = Self.endToEnd(HTTPFields(lines: fields))
        let keepLength = isHead
        result.removeAll { name in
            let lower = name.lowercased()
            return (!keepLength && lower == "content-length") || (request.decodesContentCoding && lower == "content-encoding")
        }
        return result
    }

    /// `fields` without hop-by-hop fields (RFC 9110 §7.6.1): ``hopByHop``, the names `Connection` lists, `Proxy-*`.
    static func endToEnd(_ fields: HTTPFields) -> HTTPFields {
        var result = fields
        let listed = Set(result.listValues(for: .connection).map { $0.lowercased() })
        result.removeAll { name in
            let lower = name.lowercased()
            return hopByHop.contains(lower) || listed.contains(lower) || lower.hasPrefix("proxy-")
        }
        return result
    }

    /// The three-digit code of a status line (`HTTP/1.1 200 OK`, `HTTP/2 204`).
    static func statusCode(_ line: UnsafeRawBufferPointer) -> Int? {
        guard let space = line.firstIndex(of: 0x20), space + 3 <= line.count else { return nil }
        var code = 0
        for index in space + 1..<space + 4 {
            let digit = line[index]
            guard digit >= UInt8(ascii: "0"), digit <= UInt8(ascii: "9") else { return nil }
            code = code * 10 + Int(digit - UInt8(ascii: "0"))
        }
        return code
    }

    /// The bytes without leading and trailing spaces and tabs, as a string (obs-text read as ISO-8859-1,
    /// ``CurlFieldOctets``).
    static func trimmed(_ bytes: UnsafeRawBufferPointer) -> String {
        var start = 0
        var end = bytes.count
        while start < end, bytes[start] == 0x20 || bytes[start] == 0x09 { start += 1 }
        while end > start, bytes[end - 1] == 0x20 || bytes[end - 1] == 0x09 { end -= 1 }
        return CurlFieldOctets.decode(UnsafeRawBufferPointer(rebasing: bytes[start..<end]))
    }
}
