import Testing
@testable import MediaPolicy

@Suite struct ContradictionTests {
    func errors(_ tier: String) -> [PolicyError] { PolicyFixture.errors(PolicyFixture.tierPolicy(tier)) }
    func messages(_ tier: String) -> [String] { errors(tier).map(\.description) }

    @Test func forwardedCredentialsInAnUnpartitionedSharedCache() {
        for credentials in ["bearer-required", "forward"] {
            let found = errors(#"{ "storage": "disk", "credentials": "\#(credentials)" }"#)
            #expect(found.map(\.description) == [
                #"Policies/test.json: tiers.t.credentials: "\#(credentials)" sends credentials to the origin, but the tier is a shared cache with partition "none": one user's response could be served to another; allowed: partition "credential" with these credentials, credentials "strip" or "refuse", or contentTypes ["*/*"] with credentials "forward" (conformance mode, RFC 9111 §3.5)"#,
            ])
            #expect(found.first?.code == .contradiction)
            #expect(found.first?.value == "\"\(credentials)\"")
        }
        #expect(messages(#"{ "storage": "memory", "credentials": "forward", "partition": "credential" }"#) == [])
        #expect(messages(#"{ "storage": "disk", "credentials": "refuse" }"#) == [])
    }

    @Test func conformanceModeForwardsCredentialsToASharedGenericTier() {
        // contentTypes ["*/*"] + credentials "forward": RFC 9111 §3.5 decides, no contradiction.
        #expect(messages(#"{ "storage": "memory", "cache": "shared", "credentials": "forward", "contentTypes": ["*/*"] }"#) == [])
        // bearer-required on a generic shared tier is still a contradiction.
        #expect(errors(#"{ "storage": "memory", "credentials": "bearer-required", "contentTypes": ["*/*"] }"#).map(\.code) == [.contradiction])
    }

    @Test func partitionWithoutForwardedCredentials() {
        for credentials in ["strip", "refuse"] {
            #expect(messages(#"{ "storage": "memory", "credentials": "\#(credentials)", "partition": "credential" }"#) == [
                #"Policies/test.json: tiers.t.partition: "credential" needs credentials that reach the origin, but credentials is "\#(credentials)"; allowed: credentials "bearer-required" or "forward" with partition "credential", signedURLs (the subject is the partition), or partition "none""#,
            ])
        }
    }

    @Test func forwardInterimOnlyOnGenericTiers() {
        #expect(messages(#"{ "storage": "memory", "forwardInterim": true }"#) == [
            #"Policies/test.json: tiers.t.forwardInterim: true forwards an origin's interim responses, but an image tier answers with the final image or a problem only; allowed: forwardInterim true only when contentTypes is ["*/*"]"#,
        ])
        #expect(messages(#"{ "storage": "memory", "contentTypes": ["*/*"], "forwardInterim": true }"#) == [])
        #expect(messages(#"{ "storage": "memory", "forwardInterim": "yes" }"#) == [
            #"Policies/test.json: tiers.t.forwardInterim: "yes" is a string; allowed: true or false"#,
        ])
    }

    @Test func privateCacheWithoutPartition() {
        #expect(messages(#"{ "storage": "memory", "cache": "private" }"#) == [
            #"Policies/test.json: tiers.t.cache: "private" is a per-user cache, but partition is "none": it would be shared between users; allowed: cache "private" with partition "credential", or cache "shared""#,
        ])
    }

    @Test func partitionedTierOnPlaintextDisk() {
        #expect(messages(#"{ "storage": "disk", "cache": "private", "credentials": "bearer-required", "partition": "credential" }"#) == [
            #"Policies/test.json: tiers.t.storage: "disk" would write per-user (partitioned) responses as plaintext files; allowed: encrypted-disk, memory or none with partition "credential""#,
        ])
    }

    @Test func noStoreTierWithDownstreamCaching() {
        #expect(messages(#"{ "storage": "none", "downstreamCacheControl": "public, max-age=60" }"#) == [
            #"Policies/test.json: tiers.t.downstreamCacheControl: "public, max-age=60" lets clients store what the tier never stores; allowed: a value with no-store when storage is "none""#,
        ])
        #expect(messages(#"{ "storage": "none", "downstreamCacheControl": "private, No-Store" }"#) == [])
    }

    @Test func partitionedTierWithSharedDownstreamCaching() {
        let base = #""storage": "encrypted-disk", "cache": "private", "credentials": "bearer-required", "partition": "credential""#
        for value in ["public, max-age=60", "private, s-maxage=60", "max-age=60"] {
            #expect(messages(#"{ \#(base), "downstreamCacheControl": "\#(value)" }"#) == [
                #"Policies/test.json: tiers.t.downstreamCacheControl: "\#(value)" lets shared caches downstream store per-user responses; allowed: a value with private or no-store, and without public or s-maxage, when partition is "credential""#,
            ])
        }
        #expect(messages(#"{ \#(base), "downstreamCacheControl": "private, max-age=60" }"#) == [])
        #expect(messages(#"{ \#(base), "downstreamCacheControl": "no-store" }"#) == [])
    }

    @Test func serveStaleOnErrorWithoutStorage() {
        #expect(messages(#"{ "storage": "none", "serveStaleOnError": 30 }"#) == [
            #"Policies/test.json: tiers.t.serveStaleOnError: 30 has no effect: storage is "none", nothing is kept to serve stale; allowed: 0 when storage is "none""#,
        ])
        #expect(messages(#"{ "storage": "none", "serveStaleOnError": 0 }"#) == [])
    }

    @Test func unversionedMaxTTLWithoutVersionParameter() {
        #expect(messages(#"{ "storage": "disk", "unversionedMaxTTL": 300 }"#) == [
            #"Policies/test.json: tiers.t.unversionedMaxTTL: 300 needs versionParameter, which is not set; allowed: unversionedMaxTTL only together with versionParameter"#,
        ])
    }

    @Test func everyContradictionOfATierIsReported() {
        #expect(errors(#"{ "storage": "disk", "cache": "private", "credentials": "strip", "partition": "credential", "downstreamCacheControl": "public" }"#).map(\.keyPath) == [
            "tiers.t.partition", "tiers.t.storage", "tiers.t.downstreamCacheControl",
        ])
    }

    @Test func contradictionsAreNotCheckedOnATierWithInvalidKeys() {
        #expect(messages(#"{ "storage": "disk", "credentials": "forward", "maxTTL": -1 }"#) == [
            "Policies/test.json: tiers.t.maxTTL: -1 is out of range; allowed: an integer from 0 to 2147483648 (seconds)",
        ])
    }
}
