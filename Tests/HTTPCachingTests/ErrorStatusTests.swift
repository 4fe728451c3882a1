import MediaCore
import Testing
@testable import HTTPCaching

/// 5xx and unregistered statuses (RFC 9111 §3, §4.2.2, §4.2.4; RFC 9110 §15): stored only with explicit
/// freshness, never reused stale.
@Suite struct ErrorStatusTests {
    let t0 = Fixture.t0

    func verdict(_ response: [(String, String)], status: HTTPStatus, role: CacheRole = .shared) -> String? {
        Storability.evaluate(method: "GET", requestFields: [:], status: status, responseFields: HTTPFields(response),
                             role: role).reason?.code
    }

    @Test func errorsNeedExplicitFreshness() {
        for status: HTTPStatus in [500, 502, 503, 504, 505, 599, 299, 499, 418] {
            #expect(verdict([("Cache-Control", "public")], status: status) == "error-without-explicit-freshness", "\(status)")
            #expect(verdict([("Last-Modified", "Mon, 01 Jan 2024 00:00:00 GMT")], status: status)
                == "error-without-explicit-freshness", "\(status)")
            #expect(verdict([("Cache-Control", "private")], status: status, role: .private)
                == "error-without-explicit-freshness", "\(status)")
            #expect(verdict([("Cache-Control", "max-age=60")], status: status) == nil, "\(status)")
            #expect(verdict([("Cache-Control", "s-maxage=60")], status: status) == nil, "\(status)")
            #expect(verdict([("Expires", "Thu, 01 Jan 2099 00:00:00 GMT")], status: status) == nil, "\(status)")
        }
        // `s-maxage` is explicit freshness only for a shared cache.
        #expect(verdict([("Cache-Control", "s-maxage=60")], status: 500, role: .private) == "error-without-explicit-freshness")
    }

    @Test func heuristicallyCacheableAndRegisteredStatusesKeepTheirRules() {
        // 501 is heuristically cacheable; 404 too; a registered 4xx is storable with `public`.
        #expect(verdict([], status: 501) == nil)
        #expect(verdict([], status: 404) == nil)
        #expect(verdict([("Cache-Control", "public")], status: 403) == nil)
        #expect(verdict([], status: 403) == "no-freshness-information")
    }

    @Test func aStaleErrorIsNeverServedStale() {
        let request = [("Cache-Control", "max-stale")]
        let error = Fixture.stored([("Cache-Control", "max-age=60, stale-while-revalidate=600")], status: 503)
        #expect(Fixture.decide([error], request: request, now: t0 + 61) == .fetch)
        #expect(Fixture.decide([error], now: t0 + 61) == .fetch)
        #expect(Fixture.decide([error], now: t0 + 59) == .serveFresh(index: 0, age: 59))
        let ok = Fixture.stored([("Cache-Control", "max-age=60, stale-while-revalidate=600")], status: 200)
        #expect(Fixture.decide([ok], request: request, now: t0 + 61) == .serveStale(index: 0, age: 61, reason: .maxStale))
        var machine = ServingDecision(request: CacheRequest(method: "GET", fields: [:]),
                                      candidates: [Fixture.stored([("Cache-Control", "max-age=60, stale-if-error=600")], status: 500)],
                                      role: .shared, configuration: .init(), digest: Fixture.digest)
        #expect(machine.lookup(now: t0 + 61) == .fetch)
        #expect(machine.originFailed(status: 500, now: t0 + 61) == .forwardOriginError)
    }
}
