import Testing
@testable import HTTPCaching

/// RFC 9110 §14.1.2: the `bytes` ranges-specifier of a `Range` field.
@Suite struct RangeParsingTests {
    typealias Spec = ByteRangeRequest.Spec

    @Test(arguments: [
        ("bytes=0-99", [Spec.int(first: 0, last: 99)]),
        ("bytes=100-", [Spec.int(first: 100, last: nil)]),
        ("bytes=-50", [Spec.suffix(length: 50)]),
        ("bytes=0-0", [Spec.int(first: 0, last: 0)]),
        ("bytes=-0", [Spec.suffix(length: 0)]),
        ("bytes=0-1,5-6", [Spec.int(first: 0, last: 1), Spec.int(first: 5, last: 6)]),
        ("bytes=000-007", [Spec.int(first: 0, last: 7)]),
        ("Bytes=1-2", [Spec.int(first: 1, last: 2)]),
        ("BYTES=-3", [Spec.suffix(length: 3)]),
        ("  bytes=1-2\t", [Spec.int(first: 1, last: 2)]),
        ("bytes=0-1 , 5-6", [Spec.int(first: 0, last: 1), Spec.int(first: 5, last: 6)]),
        ("bytes= 0-1,\t-2 ", [Spec.int(first: 0, last: 1), Spec.suffix(length: 2)]),
        ("bytes=,0-1,,", [Spec.int(first: 0, last: 1)]),
        ("bytes=5-5", [Spec.int(first: 5, last: 5)]),
    ])
    func validSpecifiers(value: String, specs: [Spec]) {
        #expect(ByteRangeRequest(value)?.specs == specs)
    }

    /// Invalid values are `nil`: a server ignores them (§14.2) and sends the whole representation.
    @Test(arguments: [
        "bytes=5-3", "bytes=", "bytes=,", "bytes", "bytes 0-1", "bytes =0-1", "bytes= ", "items=0-1", "bytes=-",
        "bytes=0 -1", "bytes=0- 1", "bytes=a-1", "bytes=1-b", "bytes=+1-2", "bytes=-+2", "bytes=1-2-3", "bytes=--1",
        "bytes=0-1,5-3", "bytes=0-1,x", "bytes=0x10-", "", " ", "bytes=0-1;q=1", "bytes=１-2", "bytess=0-1",
    ])
    func invalidSpecifiers(value: String) {
        #expect(ByteRangeRequest(value) == nil)
    }

    /// Positions past `Int.max` saturate, so they keep the meaning of their exact value.
    @Test func hugeNumbersSaturate() {
        let huge = "99999999999999999999999999999"
        #expect(ByteRangeRequest("bytes=\(huge)-")?.specs == [.int(first: Int.max, last: nil)])
        #expect(ByteRangeRequest("bytes=0-\(huge)")?.specs == [.int(first: 0, last: Int.max)])
        #expect(ByteRangeRequest("bytes=-\(huge)")?.specs == [.suffix(length: Int.max)])
        #expect(ByteRangeRequest("bytes=\(huge)-\(huge)")?.specs == [.int(first: Int.max, last: Int.max)])
        #expect(ByteRangeRequest("bytes=9223372036854775807-")?.specs == [.int(first: Int.max, last: nil)])
        #expect(ByteRangeRequest("bytes=9223372036854775806-")?.specs == [.int(first: Int.max - 1, last: nil)])
    }

    @Test func contentRangeValues() {
        #expect(ContentRange.value(ByteRange(first: 0, last: 99), completeLength: 1000) == "bytes 0-99/1000")
        #expect(ContentRange.value(ByteRange(first: 5, last: 5), completeLength: 6) == "bytes 5-5/6")
        #expect(ContentRange.unsatisfied(completeLength: 1000) == "bytes */1000")
        #expect(ContentRange.unsatisfied(completeLength: 0) == "bytes */0")
        #expect(ByteRange(first: 3, last: 7).count == 5)
        #expect(ByteRange(first: 3, last: 7).offsets == 3..<8)
    }
}
