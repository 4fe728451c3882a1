import HTTPCaching
import Testing
@testable import MediaPolicy

/// The tier keys `defaultTTL` and `heuristic` (docs/policy-format.md, "Freshness when the origin says nothing").
@Suite struct FreshnessPolicyTests: TierPolicyTesting {
    @Test func absentKeysKeepRFC9111sHeuristic() throws {
        let tier = try tier(#"{ "storage": "disk" }"#)
        #expect(tier.defaultTTL == nil)
        #expect(tier.heuristic == true)
        #expect(tier.freshness == Freshness.Configuration(heuristicPercent: 10, maximumHeuristicLifetime: nil,
                                                          defaultLifetime: nil, usesHeuristic: true))
    }

    @Test func bothKeysAreRead() throws {
        let tier = try tier(#"{ "storage": "disk", "defaultTTL": 3600, "heuristic": false }"#)
        #expect(tier.defaultTTL == 3600)
        #expect(tier.heuristic == false)
        #expect(tier.freshness == Freshness.Configuration(defaultLifetime: 3600, usesHeuristic: false))
        #expect(try self.tier(#"{ "storage": "disk", "defaultTTL": 2147483648 }"#).defaultTTL == 2_147_483_648)
    }

    @Test func badValuesNameTheKeyAndTheAllowedValues() {
        #expect(messages(#"{ "storage": "disk", "defaultTTL": 0, "heuristic": "no" }"#) == [
            "Policies/test.json: tiers.t.defaultTTL: 0 is out of range; allowed: an integer from 1 to 2147483648 (seconds)",
            #"Policies/test.json: tiers.t.heuristic: "no" is a string; allowed: true or false"#,
        ])
        #expect(messages(#"{ "storage": "disk", "defaultTTL": "1h" }"#) == [
            #"Policies/test.json: tiers.t.defaultTTL: "1h" is a string; allowed: an integer from 1 to 2147483648 (seconds)"#,
        ])
    }
}
