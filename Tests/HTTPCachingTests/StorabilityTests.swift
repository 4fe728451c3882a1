import MediaCore
import Testing
@testable import HTTPCaching

@Suite struct StorabilityTests {
    func verdict(_ response: [(String, String)], status: HTTPStatus = 200, request: [(String, String)] = [],
                 method: String = "GET", role: CacheRole = .shared) -> String? {
        Storability.evaluate(method: HTTPMethod(method), requestFields: HTTPFields(request), status: status,
                             responseFields: HTTPFields(response), role: role).reason?.code
    }

    @Test func storableWithMaxAge() {
        #expect(verdict([("Cache-Control", "max-age=60")]) == nil)
        #expect(Storability.evaluate(method: "GET", requestFields: [:], status: 200, responseFields: ["Cache-Control": "max-age=60"],
                                     role: .shared) == .storable)
    }

    @Test func onlyGETIsStored() {
        #expect(verdict([("Cache-Control", "max-age=60")], method: "HEAD") == "method-not-cacheable")
        #expect(verdict([("Cache-Control", "max-age=60")], method: "POST") == "method-not-cacheable")
        #expect(verdict([("Cache-Control", "max-age=60")], method: "get") == "method-not-cacheable")
    }

    @Test func statusMustBeFinalAndSupported() {
        for status: HTTPStatus in [100, 101, 103, 199, 206, 304, 600, 0] {
            #expect(verdict([("Cache-Control", "max-age=60")], status: status) == "status-not-storable", "\(status)")
        }
        for status: HTTPStatus in [200, 203, 204, 301, 302, 404, 410, 500] {
            #expect(verdict([("Cache-Control", "max-age=60")], status: status) == nil, "\(status)")
        }
    }

    @Test func responseNoStore() {
        #expect(verdict([("Cache-Control", "max-age=60, no-store")]) == "response-no-store")
        #expect(verdict([("Cache-Control", "max-age=60, no-store")], role: .private) == "response-no-store")
    }

    @Test func requestNoStore() {
        #expect(verdict([("Cache-Control", "max-age=60")], request: [("Cache-Control", "no-store")]) == "request-no-store")
    }

    @Test func mustUnderstandWithUnderstoodStatusIgnoresNoStore() {
        #expect(verdict([("Cache-Control", "must-understand, no-store, max-age=60")]) == nil)
    }

    @Test func mustUnderstandWithUnknownStatus() {
        #expect(verdict([("Cache-Control", "must-understand, no-store, max-age=60")], status: 299) == "must-understand-unknown-status")
        #expect(verdict([("Cache-Control", "must-understand, max-age=60")], status: 500) == "must-understand-unknown-status")
    }

    @Test func privateOnlyInPrivateCache() {
        #expect(verdict([("Cache-Control", "private, max-age=300")]) == "private-in-shared-cache")
        #expect(verdict([("Cache-Control", "private, max-age=300")], role: .private) == nil)
        #expect(verdict([("Cache-Control", "private")], role: .private) == nil)
    }

    @Test func qualifiedPrivateDoesNotForbidSharedStorage() {
        #expect(verdict([("Cache-Control", "private=\"Set-Cookie\", max-age=60")]) == nil)
    }

    @Test func varyStarIsNeverStored() {
        #expect(verdict([("Cache-Control", "max-age=60"), ("Vary", "*")]) == "vary-star")
        #expect(verdict([("Cache-Control", "max-age=60"), ("Vary", "Accept-Encoding, *")]) == "vary-star")
        #expect(verdict([("Cache-Control", "max-age=60"), ("Vary", "Accept-Encoding"), ("Vary", "*")]) == "vary-star")
        #expect(verdict([("Cache-Control", "max-age=60"), ("Vary", "*")], role: .private) == "vary-star")
    }

    @Test func freshnessInformationRequired() {
        #expect(verdict([], status: 302) == "no-freshness-information")
        #expect(verdict([], status: 500) == "error-without-explicit-freshness")
        #expect(verdict([]) == nil) // 200 is heuristically cacheable
        #expect(verdict([("Cache-Control", "public")], status: 302) == nil)
        #expect(verdict([("Expires", "0")], status: 302) == nil)
        #expect(verdict([("Cache-Control", "s-maxage=5")], status: 302) == nil)
        #expect(verdict([("Cache-Control", "s-maxage=5")], status: 302, role: .private) == "no-freshness-information")
        #expect(verdict([("Cache-Control", "private")], status: 302, role: .private) == nil)
    }

    @Test func storedFieldsDropHopByHopConnectionListedAndProxyFields() {
        let fields = HTTPFields([("Connection", "close, X-Hop"), ("Keep-Alive", "timeout=5"), ("Proxy-Connection", "keep-alive"),
                                 ("TE", "trailers"), ("Transfer-Encoding", "chunked"), ("Upgrade", "h2c"),
                                 ("Proxy-Authenticate", "Basic"), ("Proxy-Authorization", "Basic x"),
                                 ("Proxy-Authentication-Info", "a=b"), ("X-Hop", "1"), ("ETag", "\"v1\""),
                                 ("Cache-Control", "max-age=60")])
        let kept = StoredFields.filter(fields, role: .shared)
        #expect(kept == HTTPFields([("ETag", "\"v1\""), ("Cache-Control", "max-age=60")]))
    }

    @Test func qualifiedNoCacheFieldsNeverStored() {
        let fields = HTTPFields([("Cache-Control", "no-cache=\"Set-Cookie\", max-age=60"), ("Set-Cookie", "sid=S1")])
        #expect(StoredFields.filter(fields, role: .private).contains("set-cookie") == false)
        #expect(StoredFields.filter(fields, role: .shared).contains("set-cookie") == false)
    }

    @Test func qualifiedPrivateFieldsDroppedOnlyInSharedCache() {
        let fields = HTTPFields([("Cache-Control", "private=\"Set-Cookie\", max-age=60"), ("Set-Cookie", "sid=S1")])
        #expect(StoredFields.filter(fields, role: .shared).contains("set-cookie") == false)
        #expect(StoredFields.filter(fields, role: .private)["set-cookie"] == "sid=S1")
    }

    @Test func reasonCodesAreStable() {
        #expect([StorabilityReason.methodNotCacheable, .statusNotStorable, .requestNoStore, .responseNoStore,
                 .mustUnderstandUnknownStatus, .privateInSharedCache, .authorizationInSharedCache, .varyStar,
                 .noFreshnessInformation].map(\.description)
            == ["method-not-cacheable", "status-not-storable", "request-no-store", "response-no-store",
                "must-understand-unknown-status", "private-in-shared-cache", "authorization-in-shared-cache",
                "vary-star", "no-freshness-information"])
    }
}

@Suite struct StoringOutcomeTests {
    @Test func storeFiltersFieldsAndComputesSecondaryKey() {
        let outcome = StoredResponse.storing(
            method: "GET", requestFields: HTTPFields([("Accept-Encoding", "gzip"), ("Authorization", "Bearer t1")]), status: 200,
            responseFields: HTTPFields([("Cache-Control", "max-age=60"), ("Vary", "Accept-Encoding, Authorization"),
                                        ("Connection", "close"), ("X-Unknown", "kept")]),
            role: .private, requestTime: Fixture.t0 - 1, responseTime: Fixture.t0, digest: Fixture.digest)
        let expected = StoredResponse(
            status: 200, fields: HTTPFields([("Cache-Control", "max-age=60"), ("Vary", "Accept-Encoding, Authorization"), ("X-Unknown", "kept")]),
            requestTime: Fixture.t0 - 1, responseTime: Fixture.t0, requestMethod: "GET",
            secondaryKey: SecondaryKey(entries: [.init(name: "accept-encoding", value: "gzip"),
                                                 .init(name: "authorization", value: Fixture.digest("Bearer t1"))]))
        #expect(outcome == .store(expected))
    }

    @Test func skipCarriesReason() {
        let outcome = StoredResponse.storing(method: "GET", requestFields: [:], status: 200,
                                             responseFields: ["Cache-Control": "no-store"], role: .shared,
                                             requestTime: Fixture.t0, responseTime: Fixture.t0, digest: Fixture.digest)
        #expect(outcome == .skip(.responseNoStore))
    }

    @Test func remainingFreshness() {
        let stored = Fixture.stored([("Cache-Control", "max-age=3600")])
        #expect(stored.remainingFreshness(now: Fixture.t0 + 200, role: .shared) == 3400)
        #expect(stored.remainingFreshness(now: Fixture.t0 + 4000, role: .shared) == 0)
    }
}
