import MediaCore
import Testing
@testable import HTTPCaching

/// ``Freshness/Configuration/defaultLifetime`` and ``Freshness/Configuration/usesHeuristic``: what a response without
/// explicit freshness gets (RFC 9111 §4.2.1 leaves the heuristic, §4.2.2, to the cache).
@Suite struct DefaultLifetimeTests {
    let t0 = Fixture.t0

    func lifetime(_ pairs: [(String, String)], status: HTTPStatus = 200, _ configuration: Freshness.Configuration)
        -> (seconds: Int64, source: Freshness.Source)
    {
        let fields = HTTPFields(pairs)
        return Freshness.lifetime(status: status, fields: fields, cacheControl: CacheControl(fields: fields),
                                  responseTime: t0, role: .shared, configuration: configuration)
    }

    @Test func theDefaultComesBeforeTheHeuristicAndAfterExplicitFreshness() {
        let lastModified = [("Date", HTTPDate.format(t0)), ("Last-Modified", HTTPDate.format(t0 - 480))]
        let withDefault = Freshness.Configuration(defaultLifetime: 3600)
        #expect(lifetime(lastModified, Freshness.Configuration()) == (48, .heuristic))
        #expect(lifetime(lastModified, withDefault) == (3600, .defaultLifetime))
        #expect(lifetime([], withDefault) == (3600, .defaultLifetime))
        #expect(lifetime([("Cache-Control", "max-age=60")], withDefault) == (60, .maxAge))
        #expect(lifetime([("Cache-Control", "max-age=0")], withDefault) == (0, .maxAge))
        #expect(lifetime([("Date", HTTPDate.format(t0)), ("Expires", HTTPDate.format(t0 + 90))], withDefault) == (90, .expires))
        #expect(lifetime([("Expires", "0")], withDefault) == (0, .expires))
        #expect(lifetime([], status: 203, withDefault) == (3600, .defaultLifetime))
        for status: HTTPStatus in [204, 301, 404, 410] {
            #expect(lifetime([], status: status, withDefault) == (0, .none), "\(status)")
        }
        #expect(lifetime(lastModified, status: 404, withDefault) == (48, .heuristic))
    }

    @Test func withoutTheHeuristicAResponseWithoutFreshnessIsStale() {
        let lastModified = [("Date", HTTPDate.format(t0)), ("Last-Modified", HTTPDate.format(t0 - 480))]
        #expect(lifetime(lastModified, Freshness.Configuration(usesHeuristic: false)) == (0, .none))
        #expect(lifetime(lastModified, Freshness.Configuration(defaultLifetime: 60, usesHeuristic: false)) == (60, .defaultLifetime))
        #expect(lifetime([("Cache-Control", "max-age=60")], Freshness.Configuration(usesHeuristic: false)) == (60, .maxAge))
    }
}
