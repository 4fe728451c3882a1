import MediaCore
import Testing
@testable import HTTPCaching

@Suite struct Update304Tests {
    let t0 = Fixture.t0

    @Test func strongValidatorSelectsEveryMatch() {
        let a = Fixture.stored([("ETag", "\"a1\"")]), b = Fixture.stored([("ETag", "\"a2\"")]), c = Fixture.stored([("ETag", "\"a1\"")])
        #expect(NotModified.select([a, b, c], for: ["ETag": "\"a1\""]) == [0, 2])
    }

    @Test func strongValidatorDoesNotMatchWeakStored() {
        let a = Fixture.stored([("ETag", "W/\"a1\"")])
        #expect(NotModified.select([a], for: ["ETag": "\"a1\""]) == [])
    }

    @Test func weakValidatorSelectsMostRecentMatch() {
        let a = Fixture.stored([("ETag", "\"a1\"")], at: t0 - 10), b = Fixture.stored([("ETag", "W/\"a1\"")], at: t0 - 5),
            c = Fixture.stored([("ETag", "\"zz\"")])
        #expect(NotModified.select([a, b, c], for: ["ETag": "W/\"a1\""]) == [1])
    }

    @Test func lastModifiedSelectsMostRecentMatch() {
        let lm = HTTPDate.format(t0 - 1000)
        let a = Fixture.stored([("Last-Modified", lm)], at: t0 - 10), b = Fixture.stored([("Last-Modified", lm)], at: t0 - 20)
        #expect(NotModified.select([a, b], for: ["Last-Modified": lm]) == [0])
        #expect(NotModified.select([a, b], for: ["Last-Modified": HTTPDate.format(t0 - 999)]) == [])
    }

    @Test func noValidatorSelectsSoleValidatorlessResponse() {
        #expect(NotModified.select([Fixture.stored([])], for: [:]) == [0])
        #expect(NotModified.select([Fixture.stored([]), Fixture.stored([])], for: [:]) == [])
        #expect(NotModified.select([Fixture.stored([("ETag", "\"a\"")])], for: [:]) == [])
    }

    @Test func unmatchedOrMalformedValidatorSelectsNothing() {
        let a = Fixture.stored([("ETag", "\"a1\"")])
        #expect(NotModified.select([a], for: ["ETag": "\"zz\""]) == [])
        #expect(NotModified.select([a], for: ["ETag": "zz"]) == [])
    }

    @Test func updateReplacesFieldsAndRestartsFreshness() {
        let stored = Fixture.stored([("Cache-Control", "max-age=1"), ("ETag", "\"v1\""), ("X-Old", "1")])
        let updated = NotModified.update(stored, with: HTTPFields([("Cache-Control", "max-age=600"), ("ETag", "\"v1\""),
                                                                   ("Date", HTTPDate.format(t0 + 2)), ("X-New", "2")]),
                                         requestTime: t0 + 2, responseTime: t0 + 2, role: .shared)
        #expect(updated.fields == HTTPFields([("Cache-Control", "max-age=600"), ("ETag", "\"v1\""), ("X-Old", "1"),
                                              ("Date", HTTPDate.format(t0 + 2)), ("X-New", "2")]))
        #expect(updated.requestTime == t0 + 2)
        #expect(updated.responseTime == t0 + 2)
        #expect(updated.freshnessLifetime(role: .shared) == 600)
        #expect(updated.currentAge(now: t0 + 3) == 1)
    }

    @Test func updateKeepsBodyDependentAndNeverStoredFields() {
        let stored = Fixture.stored([("Content-Length", "48213"), ("Content-Type", "image/jpeg"), ("Content-Encoding", "identity"),
                                     ("Content-Range", "bytes 0-1/2")])
        let updated = NotModified.update(stored, with: HTTPFields([("Content-Length", "0"), ("Content-Type", "text/html"),
                                                                   ("Content-Encoding", "gzip"), ("Content-Range", "bytes 0-0/9"),
                                                                   ("Connection", "close"), ("Transfer-Encoding", "chunked"),
                                                                   ("Proxy-Authenticate", "Basic")]),
                                         requestTime: t0 + 1, responseTime: t0 + 1, role: .shared)
        #expect(updated.fields == stored.fields)
    }

    @Test func updateHonoursQualifiedPrivateInSharedCache() {
        let stored = Fixture.stored([("Cache-Control", "max-age=1")])
        let updated = NotModified.update(stored, with: HTTPFields([("Cache-Control", "private=\"Set-Cookie\", max-age=9"), ("Set-Cookie", "sid=S1")]),
                                         requestTime: t0, responseTime: t0, role: .shared)
        #expect(updated.fields.contains("set-cookie") == false)
        #expect(updated.parsed.cacheControl.maxAge == 9)
    }

    @Test func multipleLinesOfAFieldReplaceAllStoredLines() {
        let stored = Fixture.stored([("Link", "<a>"), ("Link", "<b>")], date: false)
        let updated = NotModified.update(stored, with: HTTPFields([("Link", "<c>"), ("link", "<d>")]), requestTime: t0, responseTime: t0, role: .private)
        #expect(updated.fields.values(for: "link") == ["<c>", "<d>"])
    }
}

@Suite struct HEADFresheningTests {
    let t0 = Fixture.t0
    let stored = Fixture.stored([("ETag", "\"v1\""), ("Content-Length", "48213"), ("Cache-Control", "max-age=1")])

    @Test func matchingHEADFreshens() {
        let head = HTTPFields([("ETag", "\"v1\""), ("Content-Length", "48213"), ("Cache-Control", "max-age=600")])
        guard case .updated(let updated) = NotModified.freshenWithHEAD(stored, headStatus: 200, headFields: head,
                                                                       requestTime: t0 + 5, responseTime: t0 + 5, role: .shared)
        else { Issue.record("expected .updated"); return }
        #expect(updated.freshnessLifetime(role: .shared) == 600)
        #expect(updated.responseTime == t0 + 5)
        #expect(updated.fields["Content-Length"] == "48213")
    }

    @Test func differentRepresentationMarksStale() {
        for head in [HTTPFields([("ETag", "\"v2\"")]), HTTPFields([("Content-Length", "1")]), HTTPFields([("ETag", "W/\"v1\"")])] {
            #expect(NotModified.freshenWithHEAD(stored, headStatus: 200, headFields: head, requestTime: t0, responseTime: t0,
                                                role: .shared) == .markStale)
        }
        #expect(NotModified.freshenWithHEAD(stored, headStatus: 404, headFields: [:], requestTime: t0, responseTime: t0,
                                            role: .shared) == .markStale)
    }
}

@Suite struct NotModifiedApplyTests {
    let t0 = Fixture.t0

    @Test func validatedResponseIsServed() {
        let a = Fixture.stored([("ETag", "\"a1\""), ("Cache-Control", "max-age=1")], at: t0 - 10)
        let b = Fixture.stored([("ETag", "\"a2\""), ("Cache-Control", "max-age=1")], at: t0 - 10)
        let outcome = NotModified.apply(HTTPFields([("ETag", "\"a2\""), ("Cache-Control", "max-age=60")]), to: [a, b], validating: 1,
                                        requestTime: t0, responseTime: t0, role: .private)
        #expect(outcome.serve == 1)
        #expect(outcome.updates.map(\.index) == [1])
        #expect(outcome.response(at: 1)?.freshnessLifetime(role: .private) == 60)
        #expect(outcome.response(at: 0) == nil)
    }

    @Test func otherVariantSelectedByEntityTagIsServed() {
        let a = Fixture.stored([("ETag", "\"a1\""), ("Cache-Control", "max-age=1")], at: t0 - 20)
        let b = Fixture.stored([("ETag", "\"a1\""), ("Cache-Control", "max-age=1")], at: t0 - 10)
        let outcome = NotModified.apply(["ETag": "\"a1\""], to: [a, b], validating: nil, requestTime: t0, responseTime: t0, role: .shared)
        #expect(outcome.updates.map(\.index) == [0, 1])
        #expect(outcome.serve == 1)
    }

    @Test func nothingMatchedMeansRefetch() {
        let a = Fixture.stored([("ETag", "\"a2\"")])
        let outcome = NotModified.apply(["ETag": "\"zz\""], to: [a], validating: 0, requestTime: t0, responseTime: t0, role: .private)
        #expect(outcome == NotModified.Outcome(updates: [], serve: nil))
    }
}
