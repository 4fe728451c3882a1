import MediaCore
import Testing
@testable import HTTPCaching

/// RFC 9110 §13.1.5 (`If-Range`) and §14.2 (`Range` on GET of a 200): how a stored complete response answers.
@Suite struct RangeSelectionTests {
    let t0 = Fixture.t0
    /// One day before ``t0``: a strong `Last-Modified` for a response dated `t0`.
    var lastModified: String { HTTPDate.format(t0 - 86_400) }

    private func select(_ request: [(String, String)], _ stored: StoredResponse, method: String = "GET",
                        length: Int = 10) -> RangeSelection {
        RangeSelection.evaluate(method: HTTPMethod(method), requestFields: HTTPFields(request), response: stored, length: length)
    }

    @Test func noRangeIsFull() {
        let stored = Fixture.stored([("ETag", "\"v1\"")])
        #expect(select([], stored) == .full)
        #expect(select([("If-Range", "\"v1\"")], stored) == .full)
    }

    @Test func singleRangeIsPartial() {
        let stored = Fixture.stored([])
        #expect(select([("Range", "bytes=0-1")], stored) == .partial(ByteRange(first: 0, last: 1)))
        #expect(select([("Range", "bytes=1-")], stored) == .partial(ByteRange(first: 1, last: 9)))
        #expect(select([("Range", "bytes=-1")], stored) == .partial(ByteRange(first: 9, last: 9)))
        #expect(select([("range", "bytes=0-")], stored) == .partial(ByteRange(first: 0, last: 9)))
    }

    @Test func unsatisfiableIs416() {
        let stored = Fixture.stored([])
        #expect(select([("Range", "bytes=10-")], stored) == .unsatisfiable)
        #expect(select([("Range", "bytes=-0")], stored) == .unsatisfiable)
        #expect(select([("Range", "bytes=0-")], stored, length: 0) == .unsatisfiable)
    }

    /// §14.2: invalid fields, other units, several ranges (no multipart/byteranges), an empty representation's
    /// suffix, HEAD, other methods and other statuses all get the whole representation.
    @Test func ignoredRanges() {
        let stored = Fixture.stored([])
        #expect(select([("Range", "bytes=5-3")], stored) == .full)
        #expect(select([("Range", "items=0-1")], stored) == .full)
        #expect(select([("Range", "bytes=0-1,5-6")], stored) == .full)
        #expect(select([("Range", "bytes=-5")], stored, length: 0) == .full)
        #expect(select([("Range", "bytes=0-1")], stored, method: "HEAD") == .full)
        #expect(select([("Range", "bytes=0-1")], stored, method: "POST") == .full)
        #expect(select([("Range", "bytes=0-1")], Fixture.stored([], status: 404)) == .full)
        #expect(select([("Range", "bytes=0-1")], Fixture.stored([], status: 203)) == .full)
        // Two Range lines combine into a value that is not a ranges-specifier (the field is a singleton).
        #expect(select([("Range", "bytes=0-1"), ("Range", "bytes=2-3")], stored) == .full)
    }

    @Test func ifRangeWithAStrongEntityTag() {
        let stored = Fixture.stored([("ETag", "\"v1\"")])
        let range = ("Range", "bytes=0-1")
        #expect(select([range, ("If-Range", "\"v1\"")], stored) == .partial(ByteRange(first: 0, last: 1)))
        #expect(select([range, ("If-Range", " \"v1\" ")], stored) == .partial(ByteRange(first: 0, last: 1)))
        #expect(select([range, ("If-Range", "\"v2\"")], stored) == .full)
        #expect(select([range, ("If-Range", "W/\"v1\"")], stored) == .full)
        #expect(select([range, ("If-Range", "\"v1")], stored) == .full)
        #expect(select([range, ("If-Range", "\"v1\", \"v2\"")], stored) == .full)
        // A mismatch sends the whole representation even when the range could not be satisfied.
        #expect(select([("Range", "bytes=50-"), ("If-Range", "\"v2\"")], stored) == .full)
        #expect(select([("Range", "bytes=50-"), ("If-Range", "\"v1\"")], stored) == .unsatisfiable)
    }

    /// §8.8.3.2: a weak stored tag never matches strongly.
    @Test func ifRangeNeverMatchesAWeakStoredTag() {
        let stored = Fixture.stored([("ETag", "W/\"v1\"")])
        #expect(select([("Range", "bytes=0-1"), ("If-Range", "\"v1\"")], stored) == .full)
        #expect(select([("Range", "bytes=0-1"), ("If-Range", "W/\"v1\"")], stored) == .full)
        #expect(select([("Range", "bytes=0-1"), ("If-Range", "\"v1\"")], Fixture.stored([])) == .full)
    }

    @Test func ifRangeWithADate() {
        let stored = Fixture.stored([("Last-Modified", lastModified)])
        let range = ("Range", "bytes=0-1")
        #expect(select([range, ("If-Range", lastModified)], stored) == .partial(ByteRange(first: 0, last: 1)))
        // The same instant in the obsolete RFC 850 form.
        #expect(select([range, ("If-Range", "Monday, 13-Nov-23 22:13:20 GMT")], stored)
            == .partial(ByteRange(first: 0, last: 1)))
        #expect(select([range, ("If-Range", HTTPDate.format(t0 - 86_399))], stored) == .full)
        #expect(select([range, ("If-Range", HTTPDate.format(t0 - 86_401))], stored) == .full)
        #expect(select([range, ("If-Range", "yesterday")], stored) == .full)
        #expect(select([range, ("If-Range", lastModified)], Fixture.stored([])) == .full)
    }

    /// §8.8.2.2: a `Last-Modified` is strong only when the stored `Date` is at least one second after it.
    @Test func ifRangeDateNeedsAStrongLastModified() {
        let sameSecond = HTTPDate.format(t0)
        let weak = Fixture.stored([("Last-Modified", sameSecond)])
        #expect(select([("Range", "bytes=0-1"), ("If-Range", sameSecond)], weak) == .full)
        let oneSecond = HTTPDate.format(t0 - 1)
        let strong = Fixture.stored([("Last-Modified", oneSecond)])
        #expect(select([("Range", "bytes=0-1"), ("If-Range", oneSecond)], strong) == .partial(ByteRange(first: 0, last: 1)))
        // Without `Date`, the time the response was received stands in for it (RFC 9110 §6.6.1).
        let undated = Fixture.stored([("Last-Modified", oneSecond)], date: false)
        #expect(select([("Range", "bytes=0-1"), ("If-Range", oneSecond)], undated) == .partial(ByteRange(first: 0, last: 1)))
        let undatedWeak = Fixture.stored([("Last-Modified", sameSecond)], date: false)
        #expect(select([("Range", "bytes=0-1"), ("If-Range", sameSecond)], undatedWeak) == .full)
    }

    @Test func ifRangeDirectly() {
        #expect(IfRange.permitsRange(nil, entityTag: nil, lastModified: nil, date: nil))
        #expect(IfRange.permitsRange("\"a\"", entityTag: EntityTag("\"a\""), lastModified: nil, date: nil))
        #expect(!IfRange.permitsRange("\"a\"", entityTag: nil, lastModified: t0, date: t0 + 5))
        #expect(!IfRange.permitsRange("", entityTag: EntityTag("\"a\""), lastModified: t0, date: t0 + 5))
        #expect(IfRange.permitsRange(HTTPDate.format(t0), entityTag: nil, lastModified: t0, date: t0 + 1))
        #expect(!IfRange.permitsRange(HTTPDate.format(t0), entityTag: nil, lastModified: t0, date: nil))
    }
}
