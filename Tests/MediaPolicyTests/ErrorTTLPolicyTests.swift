import MediaCore
import Testing
@testable import MediaPolicy

/// The tier key `errorTTL` (docs/policy-format.md, "Negative caching").
@Suite struct ErrorTTLPolicyTests: TierPolicyTesting {
    static let keys = "400, 404, 405, 410, 414, 451, refused"
    static let contradiction = "errorTTL only on an image tier with partition \"none\" and a storage other than \"none\""

    @Test func absentMeansNoNegativeEntry() throws {
        let tier = try tier(#"{ "storage": "disk" }"#)
        #expect(tier.errorTTL == [:])
        #expect(tier.errorLifetime(key: "404") == nil)
    }

    @Test func lifetimesAreReadByKey() throws {
        let tier = try tier(#"{ "storage": "disk", "errorTTL": { "404": 60, "410": 600, "refused": 30 } }"#)
        #expect(tier.errorTTL == ["404": 60, "410": 600, "refused": 30])
        #expect(tier.errorLifetime(key: "404") == 60)
        #expect(tier.errorLifetime(key: "refused") == 30)
        #expect(tier.errorLifetime(key: "400") == nil)
    }

    @Test func theKeyOfAnOriginStatus() {
        #expect(Tier.errorTTLKey(status: 404) == "404")
        #expect(Tier.errorTTLKey(status: 451) == "451")
        #expect(Tier.errorTTLKey(status: 401) == nil)
        #expect(Tier.errorTTLKey(status: 403) == nil)
        #expect(Tier.errorTTLKey(status: 503) == nil)
        #expect(Tier.errorTTLKey(status: 200) == nil)
    }

    @Test func statusesThatAreNeverStoredSayWhy() {
        #expect(messages(#"{ "storage": "disk", "errorTTL": { "401": 60, "403": 60 } }"#) == [
            "Policies/test.json: tiers.t.errorTTL.401: 401 is never stored: it answers one caller's credentials; allowed: \(Self.keys)",
            "Policies/test.json: tiers.t.errorTTL.403: 403 is never stored: it answers one caller's credentials; allowed: \(Self.keys)",
        ])
        #expect(messages(#"{ "storage": "disk", "errorTTL": { "429": 5 } }"#) == [
            "Policies/test.json: tiers.t.errorTTL.429: 429 is never stored: it is about the moment, not the URL; allowed: \(Self.keys)",
        ])
        #expect(messages(#"{ "storage": "disk", "errorTTL": { "503": 5 } }"#) == [
            "Policies/test.json: tiers.t.errorTTL.503: 503 is never stored: a failing origin is served stale (serveStaleOnError) or coalesced, never remembered as failing; allowed: \(Self.keys)",
        ])
        #expect(messages(#"{ "storage": "disk", "errorTTL": { "418": 5 } }"#) == [
            "Policies/test.json: tiers.t.errorTTL.418: 418 is not stored: only statuses that depend on the URL alone are; allowed: \(Self.keys)",
        ])
        #expect(messages(#"{ "storage": "disk", "errorTTL": { "refuse": 5 } }"#) == [
            "Policies/test.json: tiers.t.errorTTL.refuse: unknown key (did you mean `refused`?); allowed: \(Self.keys)",
        ])
    }

    @Test func badShapesAndValuesNameTheKey() {
        #expect(messages(#"{ "storage": "disk", "errorTTL": 60 }"#) == [
            "Policies/test.json: tiers.t.errorTTL: 60 is an integer; allowed: an object of status (\(Self.keys)) → seconds",
        ])
        #expect(messages(#"{ "storage": "disk", "errorTTL": { "404": 0 } }"#) == [
            "Policies/test.json: tiers.t.errorTTL.404: 0 is out of range; allowed: an integer from 1 to 2147483648 (seconds)",
        ])
        #expect(messages(#"{ "storage": "disk", "errorTTL": { "404": "60" } }"#) == [
            "Policies/test.json: tiers.t.errorTTL.404: \"60\" is a string; allowed: an integer from 1 to 2147483648 (seconds)",
        ])
    }

    @Test func onlySharedUnpartitionedImageTiersKeepNegativeEntries() {
        #expect(messages(#"{ "storage": "disk", "contentTypes": ["*/*"], "errorTTL": { "404": 60 } }"#) == [
            "Policies/test.json: tiers.t.errorTTL: a generic tier (contentTypes [\"*/*\"]) stores the origin's error answers as RFC 9111 allows; allowed: \(Self.contradiction)",
        ])
        #expect(messages(#"{ "storage": "memory", "credentials": "bearer-required", "partition": "credential", "errorTTL": { "404": 60 } }"#) == [
            "Policies/test.json: tiers.t.errorTTL: a negative entry answers every caller, but the tier is partitioned by credential; allowed: \(Self.contradiction)",
        ])
        #expect(messages(#"{ "storage": "none", "errorTTL": { "404": 60 } }"#) == [
            "Policies/test.json: tiers.t.errorTTL: the tier stores nothing (storage \"none\"); allowed: \(Self.contradiction)",
        ])
    }
}
