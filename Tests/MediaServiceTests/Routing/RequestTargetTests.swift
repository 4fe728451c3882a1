import MediaService
import Testing

@Suite struct RequestTargetTests {
    private func refusal(_ raw: String, _ configuration: RequestTarget.Configuration = .init()) -> RoutingError? {
        do {
            _ = try RequestTarget(parsing: raw, configuration: configuration)
            return nil
        } catch {
            return error
        }
    }

    @Test func decodesOnceAndKeepsTheQueryApart() throws {
        let target = try RequestTarget(parsing: "/catalog/a%20b%2541.jpg?v=3&x=%2F")
        #expect(target.segments == ["catalog", "a b%41.jpg"])
        #expect(target.path == "/catalog/a b%41.jpg")
        #expect(target.query == "v=3&x=%2F")
        #expect(target.encoded == "/catalog/a%20b%2541.jpg?v=3&x=%2F")
    }

    @Test func trailingSlashAndEmptyQuery() throws {
        let target = try RequestTarget(parsing: "/catalog/?")
        #expect(target.segments == ["catalog", ""])
        #expect(target.query == "")
        #expect(try RequestTarget(parsing: "/").segments == [""])
    }

    /// RFC 9112 §3.2.2: a server MUST accept absolute-form; the authority is ignored like `Host`.
    @Test func absoluteFormIsReadAsItsPathAndQuery() throws {
        let target = try RequestTarget(parsing: "http://evil.example/catalog/a.jpg?v=2")
        #expect(target.segments == ["catalog", "a.jpg"])
        #expect(target.query == "v=2")
        #expect(target.encoded == "/catalog/a.jpg?v=2")
        #expect(try RequestTarget(parsing: "HTTPS://Host:8443").segments == [""])
        #expect(try RequestTarget(parsing: "http://host?q=1").query == "q=1")
    }

    @Test func utf8Segments() throws {
        #expect(try RequestTarget(parsing: "/caf%C3%A9.jpg").segments == ["café.jpg"])
        #expect(try RequestTarget(parsing: "/a/...;v=1/..b").segments == ["a", "...;v=1", "..b"])
    }

    static let refusals: [(String, String, String)] = [
        ("", "empty-target", "the request target is empty"),
        ("ftp://evil.example/catalog/a.jpg", "absolute-form", "only http and https absolute-form targets are accepted"),
        ("http:///catalog/a.jpg", "absolute-form", "the absolute-form target has no host"),
        ("http://evil.example/catalog/../receipts/r.png", "dot-segment", "'..' segment at index 1"),
        ("*", "not-origin-form", "the request target does not start with /"),
        ("catalog/a.jpg", "not-origin-form", "the request target does not start with /"),
        ("/catalog/../etc/passwd", "dot-segment", "'..' segment at index 1"),
        ("/catalog/./a.jpg", "dot-segment", "'.' segment at index 1"),
        ("/catalog/%2e%2E/x", "dot-segment", "'..' segment at index 1"),
        ("/catalog/%2E", "dot-segment", "'.' segment at index 1"),
        ("/catalog/..", "dot-segment", "'..' segment at index 1"),
        ("/catalog/..;/receipts/r.png", "dot-segment", "'..' segment at index 1"),
        ("/catalog/.%2e;jsessionid=1/x", "dot-segment", "'..' segment at index 1"),
        ("/catalog/%C0%AE%C0%AE/x", "invalid-utf8", "a decoded path segment is not UTF-8"),
        ("//evil.example/a.jpg", "empty-segment", "empty path segment at index 0"),
        ("/catalog//a.jpg", "empty-segment", "empty path segment at index 1"),
        ("/catalog/a%2Fb", "encoded-slash", "encoded slash in the path at byte 10"),
        ("/catalog/a%2fb", "encoded-slash", "encoded slash in the path at byte 10"),
        ("/catalog/a%5Cb", "backslash", "encoded backslash in the path at byte 10"),
        ("/catalog/a%5cb", "backslash", "encoded backslash in the path at byte 10"),
        ("/catalog\\a", "backslash", "backslash in the path at byte 8"),
        ("/catalog/a%00.jpg", "nul-byte", "encoded NUL in the path at byte 10"),
        ("/catalog/a\u{0}.jpg", "nul-byte", "NUL byte in the path at byte 10"),
        ("/catalog/a%0D%0Ab", "control-character", "encoded control character 0x0D in the path at byte 10"),
        ("/catalog/a\tb", "control-character", "control character 0x09 in the path at byte 10"),
        ("/catalog/a%7F", "control-character", "encoded control character 0x7F in the path at byte 10"),
        ("/catalog/a%zz", "bad-percent-encoding", "'%' without two hex digits in the path at byte 10"),
        ("/catalog/a%4", "bad-percent-encoding", "'%' without two hex digits in the path at byte 10"),
        ("/catalog/a%", "bad-percent-encoding", "'%' without two hex digits in the path at byte 10"),
        ("/catalog/%C3%28", "invalid-utf8", "a decoded path segment is not UTF-8"),
        ("/catalog/a b", "invalid-character", "byte 0x20 must be percent-encoded in the path at byte 10"),
        ("/catalog/a.jpg#frag", "invalid-character", "byte 0x23 must be percent-encoded in the path at byte 14"),
        ("/catalog/café", "invalid-character", "byte 0xC3 must be percent-encoded in the path at byte 12"),
        ("/catalog/a?x=%00", "nul-byte", "encoded NUL in the query at byte 13"),
        ("/catalog/a?x=%0a", "control-character", "encoded control character 0x0A in the query at byte 13"),
        ("/catalog/a?x=%g0", "bad-percent-encoding", "'%' without two hex digits in the query at byte 13"),
        ("/catalog/a?x=\u{1}", "control-character", "control character 0x01 in the query at byte 13"),
        ("/catalog/a?x=a b", "invalid-character", "byte 0x20 must be percent-encoded in the query at byte 14"),
    ]

    @Test(arguments: Self.refusals.indices)
    func refusedWithItsReason(_ index: Int) {
        let (raw, code, context) = Self.refusals[index]
        let error = refusal(raw)
        #expect(error == RoutingError(RoutingError.Code(rawValue: code), context))
        #expect(error?.httpStatus == 400)
    }

    @Test func pathLengthLimitIsInclusive() throws {
        let path = "/" + String(repeating: "a", count: 2047)
        #expect(try RequestTarget(parsing: path).segments[0].count == 2047)
        #expect(refusal(path + "a") == RoutingError(.pathTooLong, "the path has 2049 bytes, over the limit of 2048"))
        #expect(refusal("/abc", .init(maxPathBytes: 3)) == RoutingError(.pathTooLong, "the path has 4 bytes, over the limit of 3"))
    }

    @Test func queryLengthLimit() {
        #expect(refusal("/a?" + String(repeating: "q", count: 11), .init(maxQueryBytes: 10))
            == RoutingError(.queryTooLong, "the query has 11 bytes, over the limit of 10"))
    }

    @Test func segmentEncodingKeepsPcharsOnly() {
        #expect(RequestTarget.encode(segment: "a b/c?d#e%f:g@h+i~j") == "a%20b%2Fc%3Fd%23e%25f:g@h+i~j")
        #expect(RequestTarget.encode(segment: "café") == "caf%C3%A9")
    }

    @Test func segmentEncodingReturnsCleanSegmentsAsTheyAreAndEscapesEveryOtherByte() {
        let clean = "AZaz09-._~!$&'()*+,;=:@"
        #expect(RequestTarget.encode(segment: clean) == clean)
        #expect(RequestTarget.encode(segment: "") == "")
        #expect(RequestTarget.encode(segment: "\u{7F}[]\\^") == "%7F%5B%5D%5C%5E")
        #expect(RequestTarget.encode(segment: "x\u{0}") == "x%00")
    }

    @Test func unescapedAndEscapedSegmentsDecodeAlike() throws {
        let plain = try RequestTarget(parsing: "/catalog/miss-1-2.jpg?w=1")
        #expect(plain.segments == ["catalog", "miss-1-2.jpg"])
        #expect(plain.query == "w=1")
        #expect(try RequestTarget(parsing: "/c%61talog/miss-1-2%2Ejpg").segments == ["catalog", "miss-1-2.jpg"])
        #expect(refusal("/a/.hidden/..x/.;/") == RoutingError(.dotSegment, "'.' segment at index 3"))
        #expect(refusal("/a/..;x/b")?.code == .dotSegment)
        #expect(refusal("/a/.")?.code == .dotSegment)
        #expect(try RequestTarget(parsing: "/a/.well-known/x").segments == ["a", ".well-known", "x"])
    }
}

