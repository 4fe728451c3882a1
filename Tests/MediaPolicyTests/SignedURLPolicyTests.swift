import Testing
@testable import MediaPolicy

/// Tier key `signedURLs` and route keys `originAuthorization` and `subjectHeader` (docs/signed-urls.md).
@Suite struct SignedURLPolicyTests {
    func tier(_ signed: String, credentials: String = "strip", partition: String = "credential") -> String {
        #"{ "storage": "encrypted-disk", "cache": "\#(partition == "credential" ? "private" : "shared")", "credentials": "\#(credentials)", "partition": "\#(partition)", "signedURLs": \#(signed) }"#
    }

    func messages(_ tier: String) -> [String] { PolicyFixture.messages(PolicyFixture.tierPolicy(tier)) }

    @Test func defaultsAndTheKeysPathResolvedAgainstThePolicyFile() throws {
        let set = try PolicyFixture.load(PolicyFixture.tierPolicy(tier(#"{ "keys": "keys/r.keys" }"#)), file: "Policies/test.json")
        #expect(set.tiers["t"]?.signedURLs == SignedURLPolicy(keys: "keys/r.keys", keysPath: "Policies/keys/r.keys",
                                                               maxLifetime: 900, required: true))
        let absolute = try PolicyFixture.load(
            PolicyFixture.tierPolicy(tier(#"{ "keys": "/etc/mediactl/r.keys", "maxLifetime": 60, "required": true }"#)),
            file: "/srv/policies/p.json")
        #expect(absolute.tiers["t"]?.signedURLs?.keysPath == "/etc/mediactl/r.keys")
        #expect(absolute.tiers["t"]?.signedURLs?.maxLifetime == 60)
        let bare = try PolicyFixture.load(PolicyFixture.tierPolicy(tier(#"{ "keys": "r.keys" }"#)), file: "p.json")
        #expect(bare.tiers["t"]?.signedURLs?.keysPath == "r.keys")
    }

    @Test func invalidValuesNameTheKeyAndTheAllowedValues() {
        #expect(messages(tier(#"{ "maxLifetime": 0, "required": "yes", "extra": 1 }"#)) == [
            #"Policies/test.json: tiers.t.signedURLs.extra: unknown key; allowed: keys, maxLifetime, required"#,
            #"Policies/test.json: tiers.t.signedURLs.keys: missing required key; allowed: a file path (relative to the policy file's directory, or absolute) of 1 to 1024 characters, without NUL or control characters"#,
            #"Policies/test.json: tiers.t.signedURLs.maxLifetime: 0 is out of range; allowed: an integer from 1 to 86400 (seconds)"#,
            #"Policies/test.json: tiers.t.signedURLs.required: "yes" is a string; allowed: true or false"#,
        ])
        #expect(messages(tier(#"{ "keys": "" }"#)) == [
            #"Policies/test.json: tiers.t.signedURLs.keys: "" is not a usable file path; allowed: a file path (relative to the policy file's directory, or absolute) of 1 to 1024 characters, without NUL or control characters"#,
        ])
        #expect(messages(tier(#""keys/r.keys""#)) == [
            #"Policies/test.json: tiers.t.signedURLs: "keys/r.keys" is a string; allowed: an object with keys keys, maxLifetime, required"#,
        ])
    }

    @Test func contradictions() {
        #expect(messages(tier(#"{ "keys": "k" }"#, partition: "none")) == [
            #"Policies/test.json: tiers.t.signedURLs: a signed URL opens its subject's partition, but partition is "none": every subject would share one cache; allowed: partition "credential" with signedURLs"#,
        ])
        #expect(messages(tier(#"{ "keys": "k", "required": false }"#)) == [
            #"Policies/test.json: tiers.t.signedURLs.required: false accepts bearer tokens too, but credentials is "strip"; allowed: required false only with credentials "bearer-required"; else required true"#,
        ])
        #expect(messages(tier(#"{ "keys": "k", "required": false }"#, credentials: "bearer-required")) == [])
        for credentials in ["bearer-required", "forward"] {
            #expect(messages(tier(#"{ "keys": "k" }"#, credentials: credentials)) == [
                #"Policies/test.json: tiers.t.credentials: "\#(credentials)" accepts credentials, but signedURLs.required is true: only signed URLs are accepted; allowed: credentials "strip" or "refuse" with signedURLs.required true, or signedURLs.required false with "bearer-required""#,
            ])
        }
        #expect(messages(tier(#"{ "keys": "k" }"#, credentials: "refuse")) == [])
    }

    @Test func routeKeys() throws {
        let text = #"{ "tiers": { "s": \#(tier(#"{ "keys": "k" }"#)) }, "routes": [ { "name": "r", "mount": "/r/", "origin": "http://o.example/", "tier": "s", "originAuthorization": { "bearerFile": "secrets/o.token" }, "subjectHeader": "Mediactl-Subject" } ] }"#
        let route = try #require(try PolicyFixture.load(text, file: "Policies/p.json").routes.first)
        #expect(route.originAuthorization == OriginAuthorization(bearerFile: "secrets/o.token", bearerPath: "Policies/secrets/o.token"))
        #expect(route.subjectHeader == "Mediactl-Subject")
    }

    @Test func routeKeysNeedASignedTierAndValidValues() {
        let unsigned = #"{ "tiers": { "t": { "storage": "disk" } }, "routes": [ { "name": "r", "mount": "/r/", "origin": "http://o.example/", "tier": "t", "originAuthorization": { "bearerFile": "o.token" }, "subjectHeader": "X-Subject" } ] }"#
        #expect(PolicyFixture.messages(unsigned) == [
            #"Policies/test.json: routes[0].originAuthorization: originAuthorization applies to signed requests, but tier "t" has no signedURLs; allowed: originAuthorization only on a route whose tier has signedURLs"#,
            #"Policies/test.json: routes[0].subjectHeader: subjectHeader applies to signed requests, but tier "t" has no signedURLs; allowed: subjectHeader only on a route whose tier has signedURLs"#,
        ])
        let bad = #"{ "tiers": { "t": { "storage": "disk" } }, "routes": [ { "name": "r", "mount": "/r/", "origin": "http://o.example/", "tier": "t", "originAuthorization": { "file": "o" }, "subjectHeader": "Authorization" } ] }"#
        #expect(PolicyFixture.messages(bad) == [
            #"Policies/test.json: routes[0].originAuthorization.file: unknown key; allowed: bearerFile"#,
            #"Policies/test.json: routes[0].originAuthorization.bearerFile: missing required key; allowed: a file path (relative to the policy file's directory, or absolute) of 1 to 1024 characters, without NUL or control characters"#,
            #"Policies/test.json: routes[0].subjectHeader: "Authorization" is a field HTTP or the cache owns; allowed: a field name (RFC 9110 token, at most 64 characters) such as "Mediactl-Subject", not a field HTTP or the cache owns"#,
        ])
    }
}
