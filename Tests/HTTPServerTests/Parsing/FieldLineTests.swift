import Testing
@testable import HTTPServer

@Suite struct FieldLineTests {
    @Test func trimsOptionalWhitespaceAndKeepsOrder() {
        let outcome = parse("GET / HTTP/1.1\r\nHost:h\r\nX-B: \t two words \t\r\nx-b:3\r\nEmpty:\r\n\r\n")
        #expect(outcome.error == nil)
        let request = outcome.requests[0]
        #expect(pairs(request.headerFields) == [["Host", "h"], ["X-B", "two words"], ["x-b", "3"], ["Empty", ""]])
        #expect(request.field("x-B") == "two words, 3")
        #expect(request.fieldValues("X-b") == ["two words", "3"])
        #expect(request.field("missing") == nil)
    }

    @Test func obsoleteLineFoldingIs400() {
        let outcome = parse("GET / HTTP/1.1\r\nHost: h\r\nX-A: one\r\n two\r\n\r\n")
        #expect(outcome.error == HTTPParseError(
            code: .obsoleteLineFolding, status: 400, message: "obsolete line folding in header section"))
    }

    @Test func whitespaceBeforeFirstFieldIs400() {
        let outcome = parse("GET / HTTP/1.1\r\n\tHost: h\r\n\r\n")
        #expect(outcome.error?.code == .obsoleteLineFolding)
    }

    @Test func nulInValueIs400() {
        let outcome = parse("GET / HTTP/1.1\r\nHost: h\r\nX-A: a\u{0}b\r\n\r\n")
        #expect(outcome.error == HTTPParseError(code: .invalidFieldValue, status: 400, message: "NUL in field value"))
    }

    @Test func otherControlCharacterInValueIs400() {
        let outcome = parse("GET / HTTP/1.1\r\nHost: h\r\nX-A: a\u{1}b\r\n\r\n")
        #expect(outcome.error == HTTPParseError(
            code: .invalidFieldValue, status: 400, message: "control character in field value"))
    }

    @Test func bareCRInFieldIs400() {
        let outcome = parse("GET / HTTP/1.1\r\nHost: h\r\nX-A: a\rb\r\n\r\n")
        #expect(outcome.error == HTTPParseError(code: .bareCarriageReturn, status: 400, message: "bare CR in field line"))
    }

    @Test func whitespaceBeforeColonIs400() {
        let outcome = parse("GET / HTTP/1.1\r\nHost : h\r\n\r\n")
        #expect(outcome.error == HTTPParseError(code: .invalidFieldName, status: 400, message: "field name is not a token"))
    }

    /// Hardening item 6: CGI-style origins read `X_Forwarded_Host` as `X-Forwarded-Host`; refused unless allowed.
    @Test(arguments: ["X_Forwarded_Host", "x_real_ip", "_", "A_"])
    func underscoreNamesAre400UnlessAllowed(_ name: String) {
        let expected = HTTPParseError(code: .invalidFieldName, status: 400,
                                      message: "field name with '_' (CGI-style origins read it as '-')")
        #expect(parse("GET / HTTP/1.1\r\nHost: h\r\n\(name): v\r\n\r\n").error == expected)
        let names = UnderscoreFieldNames(["X_TENANT"])
        let configuration = HTTPRequestParser.Configuration(underscoreNames: names)
        #expect(parse("GET / HTTP/1.1\r\nHost: h\r\n\(name): v\r\n\r\n", configuration: configuration).error == expected)
        let allowed = parse("GET / HTTP/1.1\r\nHost: h\r\nx_Tenant: acme\r\n\r\n", configuration: configuration)
        #expect(allowed.error == nil)
        #expect(allowed.requests.first?.headerFields.last?.name == "x_Tenant")
        // Replaced while in use (a policy reload): the same configuration follows.
        names.replace(with: [name])
        #expect(parse("GET / HTTP/1.1\r\nHost: h\r\n\(name): v\r\n\r\n", configuration: configuration).error == nil)
        #expect(parse("GET / HTTP/1.1\r\nHost: h\r\nx_Tenant: acme\r\n\r\n", configuration: configuration).error == expected)
    }

    @Test func lineWithoutColonIs400() {
        let outcome = parse("GET / HTTP/1.1\r\nHost h\r\n\r\n")
        #expect(outcome.error == HTTPParseError(code: .invalidFieldName, status: 400, message: "field line without a colon"))
    }

    @Test func missingHostInHTTP11Is400() {
        let outcome = parse("GET / HTTP/1.1\r\nAccept: */*\r\n\r\n")
        #expect(outcome.error == HTTPParseError(
            code: .invalidHost, status: 400, message: "request without exactly one Host field"))
    }

    @Test func twoHostsAre400() {
        let outcome = parse("GET / HTTP/1.1\r\nHost: a\r\nHOST: b\r\n\r\n")
        #expect(outcome.error?.code == .invalidHost)
    }

    /// obs-text is kept as octets: each byte one ISO-8859-1 scalar (RFC 9110 §5.5 gives no charset), so the
    /// bytes `C3 A9` read as U+00C3 U+00A9 and serialize back as `C3 A9`.
    @Test func obsTextInValueIsKept() {
        let outcome = parse(bytes: Array("GET / HTTP/1.1\r\nHost: h\r\nX-A: caf".utf8) + [0xC3, 0xA9] + Array("\r\n\r\n".utf8))
        let value = outcome.requests.first?.field("x-a")
        #expect(value?.unicodeScalars.map(\.value) == [0x63, 0x61, 0x66, 0xC3, 0xA9])
        var out: [UInt8] = []
        FieldValueOctets.append(value ?? "", to: &out)
        #expect(out == Array("caf".utf8) + [0xC3, 0xA9])
    }

    @Test func hundredFieldsAreAccepted() {
        let fields = (1..<100).map { "X-\($0): v\r\n" }.joined()
        let outcome = parse("GET / HTTP/1.1\r\nHost: h\r\n" + fields + "\r\n")
        #expect(outcome.error == nil)
        #expect(outcome.requests.first?.headerFields.count == 100)
    }

    @Test func hundredAndOneFieldsAre431() {
        let fields = (1...100).map { "X-\($0): v\r\n" }.joined()
        let outcome = parse("GET / HTTP/1.1\r\nHost: h\r\n" + fields + "\r\n")
        #expect(outcome.error == HTTPParseError(code: .tooManyFields, status: 431, message: "more than 100 header fields"))
    }

    @Test func headerSectionOver64KiBIs431() {
        let big = "X-Big: " + String(repeating: "v", count: 65_536) + "\r\n"
        let expected = HTTPParseError(
            code: .headerSectionTooLarge, status: 431, message: "header section longer than 65536 bytes")
        #expect(parse("GET / HTTP/1.1\r\nHost: h\r\n" + big + "\r\n").error == expected)
        // Detected while the oversized line is still arriving.
        #expect(parse("GET / HTTP/1.1\r\nHost: h\r\nX-Big: " + String(repeating: "v", count: 70_000)).error == expected)
    }

    @Test func headerSectionExactlyAtLimitIsAccepted() {
        // "Host: h\r\n" (9) + field line + final "\r\n" (2) == 65,536 bytes.
        let valueLength = 65_536 - 9 - 2 - "X-Big: \r\n".utf8.count
        let big = "X-Big: " + String(repeating: "v", count: valueLength) + "\r\n"
        let outcome = parse("GET / HTTP/1.1\r\nHost: h\r\n" + big + "\r\n")
        #expect(outcome.error == nil)
        #expect(outcome.requests.count == 1)
    }

    @Test func smallerConfiguredLimitsApply() {
        let configuration = HTTPRequestParser.Configuration(maxRequestLineBytes: 20, maxHeaderBytes: 30, maxFieldCount: 2)
        #expect(parse("GET /0123456789012345 HTTP/1.1\r\n\r\n", configuration: configuration).error?.status == 414)
        #expect(parse("GET / HTTP/1.1\r\nHost: h\r\nA: 1\r\nB: 2\r\n\r\n", configuration: configuration).error
            == HTTPParseError(code: .tooManyFields, status: 431, message: "more than 2 header fields"))
        #expect(parse("GET / HTTP/1.1\r\nHost: h\r\nA: 0123456789012345\r\n\r\n", configuration: configuration).error
            == HTTPParseError(code: .headerSectionTooLarge, status: 431, message: "header section longer than 30 bytes"))
    }
}
