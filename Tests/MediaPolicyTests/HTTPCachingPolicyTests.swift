import Testing
@testable import MediaPolicy

/// The tier keys `targetedCacheControl` (also a route key) and `setCookie` (docs/policy-format.md).
@Suite struct HTTPCachingPolicyTests: TierPolicyTesting {
    static let generic = #""storage": "memory", "contentTypes": ["*/*"]"#
    static let allowed = "an array of at most 8 distinct field names (RFC 9110 tokens) other than Cache-Control, e.g. [\"CDN-Cache-Control\"]"

    @Test func defaultsFollowTheCacheRole() throws {
        let shared = try #require(try PolicyFixture.load(PolicyFixture.tierPolicy(#"{ "storage": "disk" }"#)).tier(named: "t"))
        #expect(shared.targetedCacheControl == nil)
        #expect(shared.targetedFields == ["CDN-Cache-Control"])
        #expect(shared.setCookie == .refuse)
        let privateTier = try #require(try PolicyFixture.load(PolicyFixture.tierPolicy(
            #"{ "storage": "memory", "cache": "private", "partition": "credential", "credentials": "bearer-required" }"#)).tier(named: "t"))
        #expect(privateTier.targetedFields == [])
    }

    @Test func explicitListsOnTierAndRoute() throws {
        let policy = try PolicyFixture.load(#"""
            { "tiers": { "t": { "storage": "memory", "contentTypes": ["*/*"], "setCookie": "store",
                                "targetedCacheControl": ["Mediactl-Cache-Control", "CDN-Cache-Control"] } },
              "routes": [ { "name": "r", "mount": "/r/", "origin": "http://o.example/", "tier": "t",
                            "targetedCacheControl": [] } ] }
            """#)
        let tier = try #require(policy.tier(named: "t"))
        #expect(tier.targetedFields == ["Mediactl-Cache-Control", "CDN-Cache-Control"])
        #expect(tier.setCookie == .store)
        #expect(policy.routes.first?.targetedCacheControl == [])
    }

    @Test func badListsNameTheEntry() {
        #expect(messages(#"{ "storage": "disk", "targetedCacheControl": "CDN-Cache-Control" }"#) == [
            "Policies/test.json: tiers.t.targetedCacheControl: \"CDN-Cache-Control\" is a string; allowed: \(Self.allowed)",
        ])
        #expect(messages(#"{ "storage": "disk", "targetedCacheControl": ["CDN Cache"] }"#) == [
            "Policies/test.json: tiers.t.targetedCacheControl[0]: \"CDN Cache\" is not a field name; allowed: \(Self.allowed)",
        ])
        #expect(messages(#"{ "storage": "disk", "targetedCacheControl": ["cache-control"] }"#) == [
            "Policies/test.json: tiers.t.targetedCacheControl[0]: Cache-Control is what a targeted field replaces, not a targeted field; allowed: \(Self.allowed)",
        ])
        #expect(messages(#"{ "storage": "disk", "targetedCacheControl": ["CDN-Cache-Control", "cdn-cache-control"] }"#) == [
            "Policies/test.json: tiers.t.targetedCacheControl[1]: \"cdn-cache-control\" is listed twice; allowed: \(Self.allowed)",
        ])
        #expect(messages(#"{ "storage": "disk", "targetedCacheControl": ["a", "b", "c", "d", "e", "f", "g", "h", "i"] }"#) == [
            "Policies/test.json: tiers.t.targetedCacheControl: 9 entries are more than 8; allowed: \(Self.allowed)",
        ])
        #expect(PolicyFixture.messages(PolicyFixture.routePolicy(
            #"{ "name": "r", "mount": "/r/", "origin": "http://o.example/", "tier": "t", "targetedCacheControl": [7] }"#)) == [
            "Policies/test.json: routes[0].targetedCacheControl[0]: 7 is an integer; allowed: \(Self.allowed)",
        ])
    }

    @Test func setCookieValuesAndContradiction() {
        #expect(messages(#"{ "storage": "disk", "setCookie": "keep" }"#) == [
            "Policies/test.json: tiers.t.setCookie: \"keep\" is not allowed; allowed: refuse, store",
        ])
        #expect(messages(#"{ "storage": "disk", "setCookie": "store" }"#) == [
            "Policies/test.json: tiers.t.setCookie: \"store\" keeps origin cookies, but an image tier never passes them to its clients; allowed: setCookie \"store\" only when contentTypes is [\"*/*\"]",
        ])
        #expect(messages("{ \(Self.generic), \"setCookie\": \"store\" }") == [])
    }
}
