import MediaCore
import Testing
@testable import HTTPCaching

@Suite struct StaleServingTests {
    let t0 = Fixture.t0
    let etag = ("ETag", "\"v1\"")
    var conditional: ServingAction { .revalidate(index: 0, conditionalFields: ["If-None-Match": "\"v1\""]) }

    func stored(_ cacheControl: String) -> StoredResponse {
        Fixture.stored([("Cache-Control", cacheControl), etag])
    }

    @Test func freshIsServedWithAge() {
        #expect(Fixture.decide([stored("max-age=60")], now: t0 + 10) == .serveFresh(index: 0, age: 10))
    }

    @Test func missFetchesAndOnlyIfCachedTimesOut() {
        #expect(Fixture.decide([], now: t0) == .fetch)
        #expect(Fixture.decide([], request: [("Cache-Control", "only-if-cached")], now: t0) == .gatewayTimeout)
    }

    @Test func unsafeMethodsAreForwarded() {
        #expect(Fixture.decide([stored("max-age=60")], method: "POST", now: t0) == .fetch)
    }

    @Test func headIsServedFromStoredGET() {
        #expect(Fixture.decide([stored("max-age=60")], method: "HEAD", now: t0 + 1) == .serveFresh(index: 0, age: 1))
    }

    @Test func requestMaxAge() {
        #expect(Fixture.decide([stored("max-age=600")], request: [("Cache-Control", "max-age=5")], now: t0 + 5) == .serveFresh(index: 0, age: 5))
        #expect(Fixture.decide([stored("max-age=600")], request: [("Cache-Control", "max-age=5")], now: t0 + 6) == conditional)
        #expect(Fixture.decide([stored("max-age=600")], request: [("Cache-Control", "max-age=0")], now: t0 + 1) == conditional)
    }

    @Test func requestMinFresh() {
        #expect(Fixture.decide([stored("max-age=60")], request: [("Cache-Control", "min-fresh=30")], now: t0 + 30) == .serveFresh(index: 0, age: 30))
        #expect(Fixture.decide([stored("max-age=60")], request: [("Cache-Control", "min-fresh=30")], now: t0 + 31) == conditional)
    }

    @Test func requestMaxStale() {
        #expect(Fixture.decide([stored("max-age=60")], request: [("Cache-Control", "max-stale=10")], now: t0 + 70)
            == .serveStale(index: 0, age: 70, reason: .maxStale))
        #expect(Fixture.decide([stored("max-age=60")], request: [("Cache-Control", "max-stale=10")], now: t0 + 71) == conditional)
        #expect(Fixture.decide([stored("max-age=60")], request: [("Cache-Control", "max-stale")], now: t0 + 1_000_000)
            == .serveStale(index: 0, age: 1_000_000, reason: .maxStale))
    }

    @Test func staleIsNeverServedWithoutPermission() {
        #expect(Fixture.decide([stored("max-age=60")], now: t0 + 60) == conditional)
    }

    @Test func requestNoCacheAndPragma() {
        #expect(Fixture.decide([stored("max-age=600")], request: [("Cache-Control", "no-cache")], now: t0 + 1) == conditional)
        #expect(Fixture.decide([stored("max-age=600")], request: [("Pragma", "no-cache")], now: t0 + 1) == conditional)
        // Pragma is ignored when Cache-Control is present (§5.4).
        #expect(Fixture.decide([stored("max-age=600")], request: [("Pragma", "no-cache"), ("Cache-Control", "max-stale=5")], now: t0 + 1)
            == .serveFresh(index: 0, age: 1))
    }

    @Test func requestNoStoreDoesNotPreventServing() {
        #expect(Fixture.decide([stored("max-age=600")], request: [("Cache-Control", "no-store")], now: t0 + 1) == .serveFresh(index: 0, age: 1))
    }

    @Test func responseNoCacheAlwaysRevalidates() {
        #expect(Fixture.decide([stored("no-cache, max-age=600")], now: t0 + 1) == conditional)
        #expect(Fixture.decide([stored("no-cache, max-age=600")], request: [("Cache-Control", "max-stale")], now: t0 + 1) == conditional)
    }

    @Test func qualifiedNoCacheDoesNotForceRevalidation() {
        #expect(Fixture.decide([stored("no-cache=\"Set-Cookie\", max-age=600")], now: t0 + 1) == .serveFresh(index: 0, age: 1))
    }

    @Test func mustRevalidateForbidsStale() {
        let request = [("Cache-Control", "max-stale")]
        #expect(Fixture.decide([stored("max-age=60, must-revalidate")], request: request, now: t0 + 61) == conditional)
        #expect(Fixture.decide([stored("max-age=60, must-revalidate")], request: request, role: .private, now: t0 + 61) == conditional)
    }

    @Test func proxyRevalidateAndSMaxAgeOnlyInSharedCache() {
        let request = [("Cache-Control", "max-stale")]
        #expect(Fixture.decide([stored("max-age=60, proxy-revalidate")], request: request, now: t0 + 61) == conditional)
        #expect(Fixture.decide([stored("max-age=60, proxy-revalidate")], request: request, role: .private, now: t0 + 61)
            == .serveStale(index: 0, age: 61, reason: .maxStale))
        #expect(Fixture.decide([stored("s-maxage=60")], request: request, now: t0 + 61) == conditional)
        #expect(Fixture.decide([stored("max-age=60, s-maxage=600")], request: request, role: .private, now: t0 + 61)
            == .serveStale(index: 0, age: 61, reason: .maxStale))
    }

    @Test func staleWhileRevalidateWindow() {
        #expect(Fixture.decide([stored("max-age=60, stale-while-revalidate=30")], now: t0 + 90)
            == .serveStale(index: 0, age: 90, reason: .staleWhileRevalidate))
        #expect(Fixture.decide([stored("max-age=60, stale-while-revalidate=30")], now: t0 + 91) == conditional)
        #expect(Fixture.decide([stored("max-age=60, stale-while-revalidate=30, must-revalidate")], now: t0 + 61) == conditional)
        #expect(Fixture.decide([stored("max-age=60, stale-while-revalidate=30")], request: [("Cache-Control", "max-age=10")], now: t0 + 61)
            == conditional)
    }

    @Test func onlyIfCachedNeverContactsOrigin() {
        let request = [("Cache-Control", "only-if-cached")]
        #expect(Fixture.decide([stored("max-age=60")], request: request, now: t0 + 1) == .serveFresh(index: 0, age: 1))
        #expect(Fixture.decide([stored("max-age=60")], request: request, now: t0 + 61) == .gatewayTimeout)
        #expect(Fixture.decide([stored("max-age=60")], request: [("Cache-Control", "only-if-cached, max-stale")], now: t0 + 61)
            == .serveStale(index: 0, age: 61, reason: .maxStale))
    }

    func failing(_ cacheControl: String, request: [(String, String)] = [], configuration: ServingDecision.Configuration = .init(),
                 status: HTTPStatus?, at now: EpochSeconds) -> (ServingAction, ServingAction) {
        var machine = ServingDecision(request: CacheRequest(method: "GET", fields: HTTPFields(request)),
                                      candidates: [stored(cacheControl)], role: .shared, configuration: configuration, digest: Fixture.digest)
        let first = machine.lookup(now: now)
        return (first, machine.originFailed(status: status, now: now))
    }

    @Test func staleIfErrorAfterOriginFailure() {
        #expect(failing("max-age=60, stale-if-error=100", status: 503, at: t0 + 160) == (conditional, .serveStale(index: 0, age: 160, reason: .staleIfError)))
        #expect(failing("max-age=60, stale-if-error=100", status: nil, at: t0 + 160) == (conditional, .serveStale(index: 0, age: 160, reason: .staleIfError)))
        #expect(failing("max-age=60, stale-if-error=100", status: 503, at: t0 + 161) == (conditional, .forwardOriginError))
        #expect(failing("max-age=60, stale-if-error=100", status: 404, at: t0 + 61) == (conditional, .forwardOriginError))
        #expect(failing("max-age=60, stale-if-error=100, must-revalidate", status: 500, at: t0 + 61) == (conditional, .forwardOriginError))
        #expect(failing("max-age=60, stale-if-error=100, no-cache", status: 500, at: t0 + 1) == (conditional, .forwardOriginError))
        #expect(failing("s-maxage=60, stale-if-error=100", status: 500, at: t0 + 61) == (conditional, .forwardOriginError))
    }

    @Test func staleIfErrorWhenFetchingWithoutValidator() {
        var machine = ServingDecision(request: CacheRequest(method: "GET", fields: [:]),
                                      candidates: [Fixture.stored([("Cache-Control", "max-age=60, stale-if-error=30")])],
                                      role: .shared, digest: Fixture.digest)
        #expect(machine.lookup(now: t0 + 70) == .fetch)
        #expect(machine.originFailed(status: 502, now: t0 + 70) == .serveStale(index: 0, age: 70, reason: .staleIfError))
    }

    @Test func freshButRevalidatedByClientServedOnError() {
        #expect(failing("max-age=600, stale-if-error=0", request: [("Cache-Control", "no-cache")], status: nil, at: t0 + 10)
            == (conditional, .serveStale(index: 0, age: 10, reason: .staleIfError)))
    }

    @Test func staleIfErrorIsNotServedBeforeAnError() {
        #expect(Fixture.decide([stored("max-age=60, stale-if-error=100")], now: t0 + 61) == conditional)
    }

    @Test func staleIfErrorFromRequestOrConfiguration() {
        #expect(failing("max-age=60", request: [("Cache-Control", "stale-if-error=10")], status: 502, at: t0 + 70).1
            == .serveStale(index: 0, age: 70, reason: .staleIfError))
        #expect(failing("max-age=60", configuration: .init(staleIfError: 20), status: 504, at: t0 + 80).1
            == .serveStale(index: 0, age: 80, reason: .staleIfError))
        #expect(failing("max-age=60", status: 500, at: t0 + 61).1 == .forwardOriginError)
    }

    @Test func originFailedOutOfOrderForwardsError() {
        var machine = ServingDecision(request: CacheRequest(method: "GET", fields: [:]), candidates: [stored("max-age=60")],
                                      role: .shared, digest: Fixture.digest)
        #expect(machine.originFailed(status: 500, now: t0) == .forwardOriginError)
        #expect(machine.lookup(now: t0 + 1) == .serveFresh(index: 0, age: 1))
        #expect(machine.lookup(now: t0 + 1) == .fetch)
        #expect(machine.originFailed(status: 500, now: t0) == .forwardOriginError)
    }

    @Test func fetchWithoutCandidateThenErrorForwards() {
        var machine = ServingDecision(request: CacheRequest(method: "GET", fields: [:]), candidates: [], role: .shared, digest: Fixture.digest)
        #expect(machine.lookup(now: t0) == .fetch)
        #expect(machine.originFailed(status: nil, now: t0) == .forwardOriginError)
    }

    @Test func staleReasonCodes() {
        #expect([StaleReason.maxStale, .staleWhileRevalidate, .staleIfError].map(\.rawValue)
            == ["max-stale", "stale-while-revalidate", "stale-if-error"])
    }
}
