import Testing
@testable import HTTPCaching

/// RFC 9110 §14.1.1–14.1.2: which bytes a ranges-specifier selects in a representation of a given length.
@Suite struct RangeResolutionTests {
    private func resolve(_ value: String, length: Int) -> ByteRangeRequest.Resolution? {
        ByteRangeRequest(value)?.resolve(length: length)
    }

    private func one(_ first: Int, _ last: Int) -> ByteRangeRequest.Resolution {
        .satisfiable([ByteRange(first: first, last: last)])
    }

    @Test func singleRanges() {
        #expect(resolve("bytes=0-99", length: 1000) == one(0, 99))
        #expect(resolve("bytes=100-", length: 1000) == one(100, 999))
        #expect(resolve("bytes=-50", length: 1000) == one(950, 999))
        #expect(resolve("bytes=0-0", length: 1000) == one(0, 0))
        #expect(resolve("bytes=999-", length: 1000) == one(999, 999))
        #expect(resolve("bytes=0-", length: 1) == one(0, 0))
    }

    /// A last-pos at or past the length ends at the last byte; a suffix longer than the representation is all of it.
    @Test func clampedToTheLength() {
        #expect(resolve("bytes=0-5000", length: 1000) == one(0, 999))
        #expect(resolve("bytes=500-99999999999999999999999", length: 1000) == one(500, 999))
        #expect(resolve("bytes=-5000", length: 1000) == one(0, 999))
        #expect(resolve("bytes=-99999999999999999999999", length: 10) == one(0, 9))
        #expect(resolve("bytes=-10", length: 10) == one(0, 9))
    }

    @Test func unsatisfiable() {
        #expect(resolve("bytes=1000-", length: 1000) == .unsatisfiable)
        #expect(resolve("bytes=1000-2000", length: 1000) == .unsatisfiable)
        #expect(resolve("bytes=-0", length: 1000) == .unsatisfiable)
        #expect(resolve("bytes=99999999999999999999999-", length: 1000) == .unsatisfiable)
        #expect(resolve("bytes=1000-1001,-0", length: 1000) == .unsatisfiable)
        #expect(resolve("bytes=0-", length: 0) == .unsatisfiable)
        #expect(resolve("bytes=-0", length: 0) == .unsatisfiable)
    }

    /// §14.1.1: a non-zero suffix is satisfiable even for an empty representation; it selects no byte.
    @Test func emptyRepresentation() {
        #expect(resolve("bytes=-5", length: 0) == .satisfiable([]))
        #expect(resolve("bytes=0-,-5", length: 0) == .satisfiable([]))
    }

    /// Only the satisfiable range-specs are kept, in request order; overlapping ones are not merged.
    @Test func severalRanges() {
        #expect(resolve("bytes=0-1,5-6", length: 10)
            == .satisfiable([ByteRange(first: 0, last: 1), ByteRange(first: 5, last: 6)]))
        #expect(resolve("bytes=0-1,100-200", length: 10) == one(0, 1))
        #expect(resolve("bytes=-0,8-", length: 10) == one(8, 9))
        #expect(resolve("bytes=5-,0-1", length: 10)
            == .satisfiable([ByteRange(first: 5, last: 9), ByteRange(first: 0, last: 1)]))
        #expect(resolve("bytes=0-1,0-1", length: 10)
            == .satisfiable([ByteRange(first: 0, last: 1), ByteRange(first: 0, last: 1)]))
    }

    @Test func negativeLengthCountsAsEmpty() {
        #expect(ByteRangeRequest(specs: [.int(first: 0, last: nil)]).resolve(length: -1) == .unsatisfiable)
    }
}
