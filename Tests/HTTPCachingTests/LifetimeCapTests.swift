import MediaCore
import Testing
@testable import HTTPCaching

/// The cache's own cap on freshness (a tier's `maxTTL`), as ``ServingDecision`` takes it: a current age per
/// candidate. Shorter than the freshness lifetime it forces validation once reached, unless the request's
/// `max-stale` covers the excess; longer, it changes nothing.
@Suite struct LifetimeCapTests {
    let t0 = Fixture.t0
    var conditional: ServingAction { .revalidate(index: 0, conditionalFields: ["If-None-Match": "\"v1\""]) }

    func stored(_ cacheControl: String) -> StoredResponse {
        Fixture.stored([("Cache-Control", cacheControl), ("ETag", "\"v1\"")])
    }

    @Test func aShorterCapIsFreshUntilReachedThenValidated() {
        #expect(Fixture.decide([stored("max-age=600")], now: t0 + 59, lifetimeCaps: [60]) == .serveFresh(index: 0, age: 59))
        #expect(Fixture.decide([stored("max-age=600")], now: t0 + 60, lifetimeCaps: [60]) == conditional)
    }

    @Test func aCapLongerThanTheLifetimeChangesNothing() {
        #expect(Fixture.decide([stored("max-age=60")], now: t0 + 59, lifetimeCaps: [600]) == .serveFresh(index: 0, age: 59))
        #expect(Fixture.decide([stored("max-age=60")], now: t0 + 60, lifetimeCaps: [600]) == conditional)
        // The response's own stale-while-revalidate still applies past its lifetime.
        #expect(Fixture.decide([stored("max-age=60, stale-while-revalidate=30")], now: t0 + 80, lifetimeCaps: [600])
            == .serveStale(index: 0, age: 80, reason: .staleWhileRevalidate))
    }

    @Test func maxStaleCoveringTheExcessOverTheCapServes() {
        // Past the cap by 10 s, still fresh by RFC 9111: served as the response's own freshness says.
        #expect(Fixture.decide([stored("max-age=600")], request: [("Cache-Control", "max-stale=10")], now: t0 + 70,
                               lifetimeCaps: [60]) == .serveFresh(index: 0, age: 70))
        #expect(Fixture.decide([stored("max-age=600")], request: [("Cache-Control", "max-stale=10")], now: t0 + 71,
                               lifetimeCaps: [60]) == conditional)
    }

    @Test func staleWhileRevalidateDoesNotExtendACap() {
        #expect(Fixture.decide([stored("max-age=600, stale-while-revalidate=600")], now: t0 + 61, lifetimeCaps: [60])
            == conditional)
    }

    @Test func onlyIfCachedPastTheCapTimesOut() {
        #expect(Fixture.decide([stored("max-age=600")], request: [("Cache-Control", "only-if-cached")], now: t0 + 60,
                               lifetimeCaps: [60]) == .gatewayTimeout)
    }

    @Test func staleIfErrorStillAppliesAfterACapForcedValidation() {
        var machine = ServingDecision(request: CacheRequest(method: "GET", fields: HTTPFields()),
                                      candidates: [stored("max-age=600, stale-if-error=100")], role: .shared,
                                      digest: Fixture.digest, lifetimeCaps: [60])
        #expect(machine.lookup(now: t0 + 60) == conditional)
        #expect(machine.originFailed(status: 503, now: t0 + 60) == .serveStale(index: 0, age: 60, reason: .staleIfError))
    }

    @Test func capsFollowTheSelectedCandidate() {
        let older = Fixture.stored([("Cache-Control", "max-age=600"), ("ETag", "\"v0\"")], at: t0 - 100)
        #expect(Fixture.decide([older, stored("max-age=600")], now: t0 + 30, lifetimeCaps: [1, 60])
            == .serveFresh(index: 1, age: 30))
    }
}
