import MediaCore
import Testing
@testable import HTTPCaching

/// Edge cases of freshness and storability at the HTTPCaching level (RFC 9111 §3, §4.2, §5.1–§5.3: quoted, negative,
/// huge and duplicate `max-age`, `Set-Cookie` in a shared cache, invalid `Expires`, an upstream `Age`, …), each with
/// its exact expected values.
@Suite struct FreshnessAndStorabilityEdgeTests {
    let t0 = Fixture.t0

    /// Stores a 200 with `pairs` at t0 (shared role) and asks again `after` seconds later.
    func secondRequest(_ pairs: [(String, String)], after: Int64, role: CacheRole = .shared) -> ServingAction? {
        let fields = HTTPFields(pairs + [("Date", Fixture.t0Date)])
        guard Storability.evaluate(method: "GET", requestFields: [:], status: 200, responseFields: fields, role: role).isStorable else {
            return nil
        }
        let stored = StoredResponse(status: 200, fields: StoredFields.filter(fields, role: role), requestTime: t0, responseTime: t0)
        return Fixture.decide([stored], role: role, now: t0 + after)
    }

    // C07: one object per header value, fetched twice 2 s apart.
    @Test func c07QuotedMaxAgeIsFresh60() {
        #expect(secondRequest([("Cache-Control", "max-age=\"60\"")], after: 2) == .serveFresh(index: 0, age: 2))
        #expect(secondRequest([("Cache-Control", "max-age=\"60\"")], after: 60) == .fetch)
    }

    @Test func c07NegativeAndNonNumericMaxAgeAreStale() {
        #expect(secondRequest([("Cache-Control", "max-age=-1")], after: 2) == .fetch)
        #expect(secondRequest([("Cache-Control", "max-age=abc")], after: 2) == .fetch)
    }

    @Test func c07HugeMaxAgeClamped() {
        #expect(CacheControl("max-age=99999999999").maxAge == 2_147_483_648)
        #expect(secondRequest([("Cache-Control", "max-age=99999999999")], after: 2) == .serveFresh(index: 0, age: 2))
        #expect(secondRequest([("Cache-Control", "max-age=99999999999")], after: 2_147_483_648) == .fetch)
    }

    @Test func c07CaseInsensitive() {
        #expect(secondRequest([("Cache-Control", "MAX-AGE=60, Public")], after: 2) == .serveFresh(index: 0, age: 2))
    }

    @Test func c07NoStoreNotStored() {
        #expect(Storability.evaluate(method: "GET", requestFields: [:], status: 200,
                                     responseFields: ["Cache-Control": "max-age=60, no-store"], role: .shared).reason?.code == "response-no-store")
        #expect(Storability.evaluate(method: "GET", requestFields: [:], status: 200,
                                     responseFields: HTTPFields([("Cache-Control", "max-age=300"), ("Cache-Control", "no-store")]),
                                     role: .shared).reason?.code == "response-no-store")
    }

    @Test func c07QuotedCommaDoesNotSplit() {
        #expect(secondRequest([("Cache-Control", "x=\"a,b\", max-age=60")], after: 2) == .serveFresh(index: 0, age: 2))
    }

    @Test func c07DuplicateMaxAgeNever300() {
        #expect(CacheControl("max-age=0, max-age=300").maxAge == 0)
        #expect(secondRequest([("Cache-Control", "max-age=0, max-age=300")], after: 2) == .fetch)
    }

    @Test func c07PublicPrivateIsPrivate() {
        #expect(Storability.evaluate(method: "GET", requestFields: [:], status: 200,
                                     responseFields: ["Cache-Control": "public, private"], role: .shared).reason?.code == "private-in-shared-cache")
    }

    // C08: qualified private / no-cache with Set-Cookie.
    @Test func c08SetCookieNeverStoredInSharedTier() {
        for directive in ["private=\"Set-Cookie\"", "no-cache=\"Set-Cookie\""] {
            let fields = HTTPFields([("Cache-Control", directive + ", max-age=60"), ("Set-Cookie", "sid=S1")])
            #expect(Storability.evaluate(method: "GET", requestFields: [:], status: 200, responseFields: fields, role: .shared).isStorable == true)
            let kept = StoredFields.filter(fields, role: .shared)
            #expect(kept == HTTPFields([("Cache-Control", directive + ", max-age=60")]), "\(directive)")
            #expect(kept.description.contains("S1") == false)
        }
    }

    // C09: invalid Expires with Last-Modified 30 days ago → stale at once, next request conditional.
    @Test func c09InvalidExpiresIsStaleAndConditional() {
        let lastModified = HTTPDate.format(t0 - 30 * 86_400)
        for expires in ["0", "-1", "not-a-date", ""] {
            let action = secondRequest([("Expires", expires), ("Last-Modified", lastModified)], after: 2)
            #expect(action == .revalidate(index: 0, conditionalFields: ["If-Modified-Since": lastModified]), "\(expires)")
        }
    }

    @Test func c09Controls() {
        #expect(secondRequest([("Expires", "0"), ("Cache-Control", "max-age=600")], after: 2) == .serveFresh(index: 0, age: 2))
        #expect(secondRequest([("Expires", HTTPDate.format(t0 + 600))], after: 2) == .serveFresh(index: 0, age: 2))
    }

    // C10: upstream Age.
    @Test func c10UpstreamAgeLeavesOneSecond() {
        let stored = Fixture.stored([("Cache-Control", "max-age=60"), ("Age", "59"), etagPair])
        #expect(stored.currentAge(now: t0) == 59)
        #expect(Fixture.decide([stored], now: t0) == .serveFresh(index: 0, age: 59))
        #expect(Fixture.decide([stored], now: t0 + 5) == .revalidate(index: 0, conditionalFields: ["If-None-Match": "\"c10\""]))
    }

    @Test func c10HugeAgeIsStaleWithoutOverflow() {
        let stored = Fixture.stored([("Cache-Control", "max-age=60"), ("Age", "99999999999"), etagPair])
        #expect(stored.currentAge(now: t0 + 5) == 2_147_483_648)
        #expect(Fixture.decide([stored], now: t0 + 5) == .revalidate(index: 0, conditionalFields: ["If-None-Match": "\"c10\""]))
    }

    @Test func c10HitsCarryAge() {
        let stored = Fixture.stored([("Cache-Control", "max-age=60")])
        #expect(stored.servedFields(now: t0 + 2)["Age"] == "2")
    }

    let etagPair = ("ETag", "\"c10\"")

    // C11: heuristic freshness.
    @Test func c11HeuristicAtMostTenPercent() {
        let pairs = [("Last-Modified", HTTPDate.format(t0 - 10 * 86_400))]
        let stored = Fixture.stored(pairs)
        #expect(stored.freshnessLifetime(role: .shared) == 86_400)
        #expect(stored.freshnessLifetime(role: .shared, configuration: .init(maximumHeuristicLifetime: 300)) == 300)
        #expect(secondRequest(pairs, after: 86_399) == .serveFresh(index: 0, age: 86_399))
        #expect(secondRequest(pairs, after: 86_400) == .revalidate(index: 0, conditionalFields: ["If-Modified-Since": HTTPDate.format(t0 - 10 * 86_400)]))
    }

    @Test func c11NotHeuristicForOtherStatuses() {
        let pairs = [("Last-Modified", HTTPDate.format(t0 - 10 * 86_400))]
        for status: HTTPStatus in [302, 403, 500] {
            #expect(Fixture.stored(pairs, status: status).freshnessLifetime(role: .shared) == 0, "\(status)")
            #expect(Storability.evaluate(method: "GET", requestFields: [:], status: status, responseFields: HTTPFields(pairs),
                                         role: .shared).reason?.code
                == (status == 500 ? "error-without-explicit-freshness" : "no-freshness-information"), "\(status)")
        }
    }

    @Test func c11NoOrFutureLastModified() {
        #expect(Fixture.stored([]).freshnessLifetime(role: .shared) == 0)
        #expect(Fixture.stored([("Last-Modified", HTTPDate.format(t0 + 3600))]).freshnessLifetime(role: .shared) == 0)
    }

    // C12: Vary: *.
    @Test func c12VaryStarNeverStored() {
        for vary in ["*", "Accept-Encoding, *"] {
            #expect(Storability.evaluate(method: "GET", requestFields: [:], status: 200,
                                         responseFields: HTTPFields([("Cache-Control", "max-age=60"), ("Vary", vary)]),
                                         role: .shared).reason?.code == "vary-star", "\(vary)")
        }
    }

    // C13: 304 must not overwrite what the stored body depends on.
    @Test func c13NotModifiedKeepsBodyFields() {
        let stored = Fixture.stored([("ETag", "\"v1\""), ("Content-Length", "48213"), ("Content-Type", "image/jpeg"),
                                     ("Cache-Control", "max-age=1")])
        let action = Fixture.decide([stored], now: t0 + 2)
        #expect(action == .revalidate(index: 0, conditionalFields: ["If-None-Match": "\"v1\""]))
        let notModified = HTTPFields([("ETag", "\"v1\""), ("Content-Length", "0"), ("Content-Type", "text/html"),
                                      ("Cache-Control", "max-age=600"), ("Date", HTTPDate.format(t0 + 2))])
        #expect(NotModified.select([stored], for: notModified) == [0])
        let updated = NotModified.update(stored, with: notModified, requestTime: t0 + 2, responseTime: t0 + 2, role: .shared)
        #expect(updated.fields["Content-Length"] == "48213")
        #expect(updated.fields["Content-Type"] == "image/jpeg")
        #expect(updated.freshnessLifetime(role: .shared) == 600)
        #expect(Fixture.decide([updated], now: t0 + 3) == .serveFresh(index: 0, age: 1))
    }

    // C14: 304 for the wrong stored response.
    @Test func c14OnlyMatchingCopyIsFreshened() {
        let u1 = Fixture.stored([("ETag", "\"a1\""), ("Cache-Control", "private, max-age=1")])
        let u2 = Fixture.stored([("ETag", "\"a2\""), ("Cache-Control", "private, max-age=1")])
        #expect(NotModified.select([u1, u2], for: ["ETag": "\"a2\""]) == [1])
        // Each user's partition holds only its own copy: U2's revalidation lists only "a2".
        #expect(Fixture.decide([u2], role: .private, now: t0 + 2) == .revalidate(index: 0, conditionalFields: ["If-None-Match": "\"a2\""]))
        #expect(NotModified.select([u2], for: ["ETag": "\"a2\""]) == [0])
    }

    @Test func c14UnmatchedValidatorUpdatesNothing() {
        let u2 = Fixture.stored([("ETag", "\"a2\""), ("Cache-Control", "private, max-age=1")])
        #expect(NotModified.select([u2], for: ["ETag": "\"zz\""]) == [])
        // The caller then fetches unconditionally: a new decision without candidates says .fetch.
        #expect(Fixture.decide([], role: .private, now: t0 + 2) == .fetch)
    }
}
