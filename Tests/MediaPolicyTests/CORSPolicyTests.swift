import Testing
@testable import MediaPolicy

/// Tier and route key `cors` (docs/signed-urls.md, "CORS").
@Suite struct CORSPolicyTests: TierPolicyTesting {
    @Test func defaultsAndARouteOverride() throws {
        let text = #"{ "tiers": { "t": { "storage": "disk", "cors": { "allowOrigins": ["https://app.example.com", "http://127.0.0.1:8080"] } } }, "routes": [ { "name": "r", "mount": "/r/", "origin": "http://o.example/", "tier": "t", "cors": { "allowOrigins": ["https://[::1]:8443"], "maxAge": 0, "allowAuthorization": true } } ] }"#
        let set = try PolicyFixture.load(text)
        #expect(set.tiers["t"]?.cors == CORSPolicy(allowOrigins: ["https://app.example.com", "http://127.0.0.1:8080"], maxAge: 600,
                                                   allowAuthorization: false))
        #expect(set.routes.first?.cors == CORSPolicy(allowOrigins: ["https://[::1]:8443"], maxAge: 0, allowAuthorization: true))
    }

    @Test func originsAreSerializedOriginsListedOnce() {
        let allowed = #"an origin as browsers send it in Origin: http or https, a host, an optional port, no path, e.g. "https://app.example.com""#
        for origin in ["https://app.example.com/", "https://App.example.com", "*", "null", "ftp://x", "https://a.example:123456", "https://"] {
            #expect(messages(#"{ "storage": "disk", "cors": { "allowOrigins": ["\#(origin)"] } }"#) == [
                #"Policies/test.json: tiers.t.cors.allowOrigins[0]: "\#(origin)" is not an origin; allowed: \#(allowed)"#,
            ])
        }
        #expect(messages(#"{ "storage": "disk", "cors": { "allowOrigins": ["https://a.example", "https://a.example"] } }"#) == [
            #"Policies/test.json: tiers.t.cors.allowOrigins[1]: "https://a.example" is listed twice; allowed: a non-empty array of at most 64 distinct origins, each \#(allowed)"#,
        ])
        #expect(messages(#"{ "storage": "disk", "cors": { "allowOrigins": [], "maxAge": 86401, "allowAuthorization": 1 } }"#) == [
            #"Policies/test.json: tiers.t.cors.allowOrigins: 0 entries; allowed: a non-empty array of at most 64 distinct origins, each \#(allowed)"#,
            #"Policies/test.json: tiers.t.cors.maxAge: 86401 is out of range; allowed: an integer from 0 to 86400 (seconds)"#,
            #"Policies/test.json: tiers.t.cors.allowAuthorization: 1 is an integer; allowed: true or false"#,
        ])
    }

    @Test func corsIsForImageTiers() {
        #expect(messages(#"{ "storage": "memory", "contentTypes": ["*/*"], "cors": { "allowOrigins": ["https://a.example"] } }"#) == [
            #"Policies/test.json: tiers.t.cors: cors answers cross-origin reads of images, but contentTypes ["*/*"] passes the origin's own CORS fields through; allowed: cors only on a tier with image contentTypes"#,
        ])
    }
}
