import MediaCore
import Testing
@testable import HTTPCaching

@Suite struct FreshnessTests {
    let t0 = Fixture.t0

    func lifetime(_ pairs: [(String, String)], status: HTTPStatus = 200, role: CacheRole = .shared,
                  configuration: Freshness.Configuration = .init()) -> (Int64, Freshness.Source) {
        let stored = Fixture.stored(pairs, status: status)
        let result = Freshness.lifetime(status: status, fields: stored.fields, cacheControl: stored.parsed.cacheControl,
                                        responseTime: t0, role: role, configuration: configuration)
        #expect(stored.freshnessLifetime(role: role, configuration: configuration) == result.seconds)
        return result
    }

    @Test func sMaxAgeWinsInSharedCacheOnly() {
        let pairs = [("Cache-Control", "max-age=60, s-maxage=600")]
        #expect(lifetime(pairs, role: .shared) == (600, .sharedMaxAge))
        #expect(lifetime(pairs, role: .private) == (60, .maxAge))
    }

    @Test func maxAgeBeatsExpires() {
        #expect(lifetime([("Cache-Control", "max-age=60"), ("Expires", HTTPDate.format(t0 + 3600))]) == (60, .maxAge))
    }

    @Test func sMaxAgeBeatsExpiresInSharedCache() {
        let pairs = [("Cache-Control", "s-maxage=30"), ("Expires", HTTPDate.format(t0 + 3600))]
        #expect(lifetime(pairs, role: .shared) == (30, .sharedMaxAge))
        #expect(lifetime(pairs, role: .private) == (3600, .expires))
    }

    @Test func expiresMinusDate() {
        #expect(lifetime([("Expires", HTTPDate.format(t0 + 3600))]) == (3600, .expires))
    }

    @Test func expiresWithoutDateUsesResponseTime() {
        let fields = HTTPFields([("Expires", HTTPDate.format(t0 + 100))])
        let result = Freshness.lifetime(status: 200, fields: fields, cacheControl: CacheControl(fields: fields),
                                        responseTime: t0 + 40, role: .shared)
        #expect(result == (60, .expires))
    }

    @Test func expiresInPastIsZero() {
        #expect(lifetime([("Expires", HTTPDate.format(t0 - 100))]) == (0, .expires))
    }

    @Test func invalidExpiresIsAlreadyExpired() {
        for value in ["0", "-1", "not-a-date", ""] {
            #expect(lifetime([("Expires", value), ("Last-Modified", HTTPDate.format(t0 - 30 * 86_400))]) == (0, .expires), "\(value)")
        }
    }

    @Test func firstExpiresLineCounts() {
        #expect(lifetime([("Expires", HTTPDate.format(t0 + 10)), ("Expires", HTTPDate.format(t0 + 999))]) == (10, .expires))
    }

    @Test func heuristicIsTenPercentOfDateMinusLastModified() {
        #expect(lifetime([("Last-Modified", HTTPDate.format(t0 - 10 * 86_400))]) == (86_400, .heuristic))
    }

    @Test func heuristicOnlyForHeuristicallyCacheableStatuses() {
        let pairs = [("Last-Modified", HTTPDate.format(t0 - 10 * 86_400))]
        for status: HTTPStatus in [200, 203, 204, 206, 300, 301, 308, 404, 405, 410, 414, 501] {
            #expect(lifetime(pairs, status: status) == (86_400, .heuristic), "\(status)")
        }
        for status: HTTPStatus in [302, 303, 307, 400, 401, 403, 500, 502, 503] {
            #expect(lifetime(pairs, status: status) == (0, .none), "\(status)")
        }
    }

    @Test func noHeuristicWithoutOrWithFutureLastModified() {
        #expect(lifetime([]) == (0, .none))
        #expect(lifetime([("Last-Modified", HTTPDate.format(t0 + 60))]) == (0, .none))
        #expect(lifetime([("Last-Modified", "garbage")]) == (0, .none))
    }

    @Test func noHeuristicWhenExplicitFreshnessPresent() {
        #expect(lifetime([("Cache-Control", "max-age=5"), ("Last-Modified", HTTPDate.format(t0 - 10 * 86_400))]) == (5, .maxAge))
    }

    @Test func heuristicConfiguration() {
        let pairs = [("Last-Modified", HTTPDate.format(t0 - 10 * 86_400))]
        #expect(lifetime(pairs, configuration: .init(heuristicPercent: 5)) == (43_200, .heuristic))
        #expect(lifetime(pairs, configuration: .init(maximumHeuristicLifetime: 600)) == (600, .heuristic))
        #expect(lifetime(pairs, configuration: .init(heuristicPercent: .max)) == (864_000, .heuristic))
        #expect(lifetime(pairs, configuration: .init(heuristicPercent: -5)) == (0, .heuristic))
    }

    @Test func explicitLifetimeDetection() {
        #expect(Freshness.hasExplicitLifetime(fields: ["Expires": "0"], cacheControl: CacheControl(), role: .shared) == true)
        #expect(Freshness.hasExplicitLifetime(fields: [:], cacheControl: CacheControl("s-maxage=5"), role: .private) == false)
        #expect(Freshness.hasExplicitLifetime(fields: [:], cacheControl: CacheControl("s-maxage=5"), role: .shared) == true)
    }

    @Test func freshWhileLifetimeExceedsAge() {
        let stored = Fixture.stored([("Cache-Control", "max-age=60")])
        #expect(stored.isFresh(now: t0 + 59, role: .shared) == true)
        #expect(stored.isFresh(now: t0 + 60, role: .shared) == false)
    }

    @Test func hugeMaxAgeIsNeverInfinite() {
        let stored = Fixture.stored([("Cache-Control", "max-age=99999999999")])
        #expect(stored.freshnessLifetime(role: .shared) == 2_147_483_648)
        #expect(stored.isFresh(now: t0 + 2_147_483_648, role: .shared) == false)
    }
}
