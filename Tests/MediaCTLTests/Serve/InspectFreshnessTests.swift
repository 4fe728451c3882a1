import HTTPCaching
import MediaCore
import MediaPolicy
import MediaService
import Testing

@testable import MediaCTL

/// `inspect` shows a tier's `defaultTTL` and `"heuristic": false` (docs/policy-format.md, "Freshness when the origin
/// says nothing"): the lifetime, its source, the tier line and the decision, for an answer with only `Last-Modified`.
@Suite struct InspectFreshnessTests {
    static let now: Int64 = 1_700_000_000

    func lines(_ tier: Tier) -> [String] {
        let policies = PolicySet(tiers: [tier.name: tier],
                                 routes: [Route(name: "g", mount: "/g/", origin: "http://o.example/", tier: tier.name)])
        let fields: HTTPFields = [(.date, HTTPDate.format(Self.now)), (.lastModified, HTTPDate.format(Self.now - 480))]
        let inspection = Inspection(url: "http://o.example/a.txt",
                                    response: OriginResponse(status: 200, fields: fields, body: Array("hi".utf8)),
                                    requestTime: Self.now, responseTime: Self.now,
                                    policies: policies, policyNote: nil)
        return inspection.text.split(separator: "\n").map(String.init)
            .filter { $0.contains("shared cache:") || $0.hasPrefix("tier:") || $0.hasPrefix("decision:") }
    }

    func tier(defaultTTL: Int? = nil, heuristic: Bool = true) -> Tier {
        var tier = Tier(name: "generic", storage: .disk, maxTTL: 86_400, contentTypes: ["*/*"])
        tier.defaultTTL = defaultTTL
        tier.heuristic = heuristic
        return tier
    }

    @Test func theHeuristicByDefault() {
        #expect(lines(tier()) == [
            "  shared cache:   48 s (heuristic)",
            "tier:             generic (storage disk, cache shared, credentials strip, maxTTL 86400 s)",
            "decision:         disk, ttl 48 s (reason tier-storage)",
        ])
    }

    @Test func aDefaultTTL() {
        #expect(lines(tier(defaultTTL: 3600)) == [
            "  shared cache:   3600 s (default-ttl)",
            "tier:             generic (storage disk, cache shared, credentials strip, maxTTL 86400 s, defaultTTL 3600 s)",
            "decision:         disk, ttl 3600 s (reason tier-storage)",
        ])
    }

    @Test func theHeuristicOff() {
        #expect(lines(tier(heuristic: false)) == [
            "  shared cache:   0 s (none)",
            "tier:             generic (storage disk, cache shared, credentials strip, maxTTL 86400 s, heuristic off)",
            "decision:         disk, ttl 0 s (reason tier-storage)",
        ])
    }
}
