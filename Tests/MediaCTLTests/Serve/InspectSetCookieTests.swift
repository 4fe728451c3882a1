import HTTPCaching
import MediaCore
import MediaPolicy
import MediaService
import Testing

@testable import MediaCTL

/// `inspect` runs the same storage chain the service does, vetoes included: on a shared generic tier an origin
/// cookie keeps the answer out of storage, unless a qualified `private="Set-Cookie"` keeps the cookie itself out.
@Suite struct InspectSetCookieTests {
    static let tier = Tier(name: "generic", storage: .disk, maxTTL: 3600, contentTypes: ["*/*"])
    static let policies = PolicySet(tiers: ["generic": tier],
                                    routes: [Route(name: "g", mount: "/g/", origin: "http://o.example/", tier: "generic")])

    func decision(_ fields: HTTPFields) -> String? {
        let inspection = Inspection(url: "http://o.example/a.txt",
                                    response: OriginResponse(status: 200, fields: fields, body: Array("hi".utf8)),
                                    requestTime: 1_700_000_000, responseTime: 1_700_000_000,
                                    policies: Self.policies, policyNote: nil)
        return inspection.text.split(separator: "\n").first { $0.hasPrefix("decision:") }.map(String.init)
    }

    @Test func aCookieInASharedCacheIsNotStored() {
        #expect(decision(["Cache-Control": "max-age=60", "Set-Cookie": "id=1"])
            == "decision:         none, ttl 0 s (reason set-cookie-in-shared-cache)")
    }

    @Test func aCookieKeptOutByQualifiedPrivateLeavesTheAnswerStorable() {
        #expect(decision(["Cache-Control": "max-age=60, private=\"Set-Cookie\"", "Set-Cookie": "id=1"])
            == "decision:         disk, ttl 60 s (reason tier-storage)")
    }
}
