import MediaCore
import Testing
@testable import HTTPCaching

@Suite struct VaryTests {
    @Test func fieldNamesLowerCasedDeduplicatedSorted() {
        #expect(Vary.fieldNames(of: HTTPFields([("Vary", "Accept-Encoding, accept"), ("vary", "ACCEPT-ENCODING")])) == ["accept", "accept-encoding"])
        #expect(Vary.fieldNames(of: [:]) == [])
    }

    @Test func starAnywhereInTheList() {
        #expect(Vary.fieldNames(of: ["Vary": "*"]) == nil)
        #expect(Vary.fieldNames(of: ["Vary": "Accept-Encoding, *"]) == nil)
        #expect(Vary.containsStar(["Vary": "Accept-Encoding"]) == false)
        #expect(Vary.secondaryKey(request: [:], responseFields: ["Vary": "*"], digest: Fixture.digest) == nil)
    }

    @Test func combinedValueWithNormalisedWhitespace() {
        let key = Vary.secondaryKey(for: HTTPFields([("Accept-Encoding", "gzip ,  br"), ("Accept-Encoding", "zstd")]),
                                    fieldNames: ["Accept-Encoding"], digest: Fixture.digest)
        #expect(key.entries == [SecondaryKey.Entry(name: "accept-encoding", value: "gzip,br,zstd")])
    }

    @Test func normaliseKeepsQuotedWhitespace() {
        #expect(Vary.normalise("  a  b , \"x  , y\" ") == "a b,\"x  , y\"")
        #expect(Vary.normalise("") == "")
    }

    @Test func absentDiffersFromEmpty() {
        let absent = Vary.secondaryKey(for: [:], fieldNames: ["accept"], digest: Fixture.digest)
        let empty = Vary.secondaryKey(for: ["Accept": ""], fieldNames: ["accept"], digest: Fixture.digest)
        #expect(absent.entries == [SecondaryKey.Entry(name: "accept", value: nil)])
        #expect(empty.entries == [SecondaryKey.Entry(name: "accept", value: "")])
        #expect(absent != empty)
        #expect(Vary.matches(absent, request: ["Accept": ""], digest: Fixture.digest) == false)
        #expect(Vary.matches(empty, request: [:], digest: Fixture.digest) == false)
        #expect(Vary.matches(absent, request: [:], digest: Fixture.digest) == true)
    }

    @Test func sensitiveFieldsAreDigested() {
        let key = Vary.secondaryKey(for: HTTPFields([("Cookie", "sid=S1"), ("Authorization", "Bearer t1")]),
                                    fieldNames: ["cookie", "authorization"], digest: Fixture.digest)
        #expect(key.entries == [SecondaryKey.Entry(name: "authorization", value: Fixture.digest("Bearer t1")),
                                SecondaryKey.Entry(name: "cookie", value: Fixture.digest("sid=S1"))])
        #expect(key.canonicalForm.contains("S1") == false)
    }

    @Test func matchingIgnoresWhitespaceAndLineSplits() {
        let key = Vary.secondaryKey(for: ["Accept-Encoding": "gzip, br"], fieldNames: ["accept-encoding"], digest: Fixture.digest)
        #expect(Vary.matches(key, request: HTTPFields([("accept-encoding", "gzip"), ("Accept-Encoding", "br")]), digest: Fixture.digest) == true)
        #expect(Vary.matches(key, request: ["Accept-Encoding": "gzip,br"], digest: Fixture.digest) == true)
        #expect(Vary.matches(key, request: ["Accept-Encoding": "br, gzip"], digest: Fixture.digest) == false)
    }

    @Test func emptyKeyMatchesEverything() {
        #expect(Vary.matches(.empty, request: ["Accept": "x"], digest: Fixture.digest) == true)
    }

    @Test func canonicalFormIsUnambiguous() {
        let key = SecondaryKey(entries: [.init(name: "b", value: nil), .init(name: "a", value: "x:1")])
        #expect(key.canonicalForm == "a:3:x:1\nb:-\n")
        #expect(SecondaryKey.empty.canonicalForm == "")
    }

    @Test func servingSelectsMatchingMostRecentCandidate() {
        let gzip = Vary.secondaryKey(for: ["Accept-Encoding": "gzip"], fieldNames: ["accept-encoding"], digest: Fixture.digest)
        let br = Vary.secondaryKey(for: ["Accept-Encoding": "br"], fieldNames: ["accept-encoding"], digest: Fixture.digest)
        let old = Fixture.stored([("Cache-Control", "max-age=600"), ("Vary", "Accept-Encoding")], at: Fixture.t0 - 10, key: gzip)
        let other = Fixture.stored([("Cache-Control", "max-age=600"), ("Vary", "Accept-Encoding")], key: br)
        let new = Fixture.stored([("Cache-Control", "max-age=600"), ("Vary", "Accept-Encoding")], at: Fixture.t0 - 5, key: gzip)
        #expect(Fixture.decide([old, other, new], request: [("Accept-Encoding", "gzip")], now: Fixture.t0) == .serveFresh(index: 2, age: 5))
        #expect(Fixture.decide([old, other, new], request: [("Accept-Encoding", "zstd")], now: Fixture.t0) == .fetch)
    }
}

@Suite struct VarySelectionTests {
    @Test func keyThatDoesNotCoverVaryNeverMatches() {
        let stored = Fixture.stored([("Cache-Control", "max-age=600"), ("Vary", "Accept")])
        #expect(stored.matches(request: ["Accept": "x"], digest: Fixture.digest) == false)
        #expect(Fixture.decide([stored], request: [("Accept", "x")], now: Fixture.t0) == .fetch)
    }

    @Test func storedVaryStarNeverMatches() {
        let stored = Fixture.stored([("Cache-Control", "max-age=600"), ("Vary", "*")])
        #expect(stored.matches(request: [:], digest: Fixture.digest) == false)
    }

    @Test func keyWithoutVaryNeverMatches() {
        let key = SecondaryKey(entries: [.init(name: "accept", value: "x")])
        let stored = Fixture.stored([("Cache-Control", "max-age=600")], key: key)
        #expect(stored.matches(request: ["Accept": "x"], digest: Fixture.digest) == false)
    }

    @Test func coveredKeyMatches() {
        let key = SecondaryKey(entries: [.init(name: "accept", value: "x")])
        let stored = Fixture.stored([("Cache-Control", "max-age=600"), ("Vary", "ACCEPT")], key: key)
        #expect(stored.matches(request: ["accept": "x"], digest: Fixture.digest) == true)
        #expect(stored.matches(request: ["accept": "y"], digest: Fixture.digest) == false)
    }

    @Test func headResponsesAreNeverSelected() {
        let stored = StoredResponse(status: 200, fields: ["Cache-Control": "max-age=60"], requestTime: Fixture.t0,
                                    responseTime: Fixture.t0, requestMethod: "HEAD")
        #expect(stored.matches(request: [:], digest: Fixture.digest) == false)
    }
}
