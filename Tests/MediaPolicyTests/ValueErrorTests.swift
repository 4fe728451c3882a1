import Testing
@testable import MediaPolicy

@Suite struct ValueErrorTests: TierPolicyTesting {
    static let seconds = "an integer from 0 to 2147483648 (seconds)"
    static let types = #"["*/*"] or a non-empty array of distinct image/jpeg, image/png, image/gif, image/webp, image/avif"#

    @Test func unknownEnumValueSuggests() {
        let errors = PolicyFixture.errors(PolicyFixture.tierPolicy(#"{ "storage": "disc" }"#))
        #expect(errors.map(\.description) == [
            #"Policies/test.json: tiers.t.storage: "disc" is not allowed (did you mean `disk`?); allowed: disk, encrypted-disk, memory, none"#,
        ])
        #expect(errors.first?.code == .invalidValue)
        #expect(errors.first?.value == #""disc""#)
    }

    @Test func eachEnumKeyListsItsValues() {
        #expect(messages(#"{ "storage": "disk", "cache": "public", "credentials": "drop", "partition": "user" }"#) == [
            #"Policies/test.json: tiers.t.cache: "public" is not allowed; allowed: shared, private"#,
            #"Policies/test.json: tiers.t.credentials: "drop" is not allowed; allowed: strip, refuse, bearer-required, forward"#,
            #"Policies/test.json: tiers.t.partition: "user" is not allowed; allowed: none, credential"#,
        ])
    }

    @Test func missingStorage() {
        let errors = PolicyFixture.errors(PolicyFixture.tierPolicy(#"{ "cache": "shared" }"#))
        #expect(errors.map(\.description) == [
            "Policies/test.json: tiers.t.storage: missing required key; allowed: disk, encrypted-disk, memory, none",
        ])
        #expect(errors.first?.code == .missingKey)
        #expect(errors.first?.value == nil)
    }

    @Test func wrongJSONTypes() {
        #expect(messages(#"{ "storage": 1, "cache": 1.5, "maxTTL": "60", "maxPixels": true, "contentTypes": "image/png", "originTimeout": null, "versionParameter": ["v"], "downstreamCacheControl": {} }"#) == [
            "Policies/test.json: tiers.t.storage: 1 is an integer; allowed: disk, encrypted-disk, memory, none",
            "Policies/test.json: tiers.t.cache: 1.5 is a number; allowed: shared, private",
            #"Policies/test.json: tiers.t.maxTTL: "60" is a string; allowed: \#(ValueErrorTests.seconds)"#,
            "Policies/test.json: tiers.t.versionParameter: […] is an array; allowed: a query parameter name of 1 to 64 letters, digits, '-', '.', '_' or '~'",
            "Policies/test.json: tiers.t.maxPixels: true is a boolean; allowed: an integer from 1 to 4294967296 (pixels)",
            "Policies/test.json: tiers.t.originTimeout: null is null; allowed: a number greater than 0 and at most 3600 (seconds)",
            #"Policies/test.json: tiers.t.contentTypes: "image/png" is a string; allowed: \#(ValueErrorTests.types)"#,
            "Policies/test.json: tiers.t.downstreamCacheControl: {…} is an object; allowed: comma-separated Cache-Control directives (RFC 9111 §5.2) in visible ASCII, at most 1024 characters",
        ])
        #expect(PolicyFixture.errors(PolicyFixture.tierPolicy(#"{ "storage": 1 }"#)).first?.code == .wrongType)
    }

    @Test func fractionalIntegersAreRefused() {
        #expect(messages(#"{ "storage": "disk", "maxTTL": 60.5, "diskBytes": 1e9 }"#) == [
            "Policies/test.json: tiers.t.maxTTL: 60.5 is a number; allowed: \(ValueErrorTests.seconds)",
            "Policies/test.json: tiers.t.diskBytes: 1e9 is a number; allowed: an integer from 0 to 1125899906842624 (bytes)",
        ])
    }

    @Test func negativeAndAbsurdValues() {
        let errors = PolicyFixture.errors(PolicyFixture.tierPolicy(
            #"{ "storage": "disk", "maxTTL": 2147483649, "unversionedMaxTTL": -1, "serveStaleOnError": -5, "versionParameter": "v", "maxObjectBytes": 0, "maxPixels": 4294967297, "memoryBytes": 1099511627777, "diskBytes": 99999999999999999999, "originTimeout": 3600.5 }"#))
        #expect(errors.map(\.description) == [
            "Policies/test.json: tiers.t.maxTTL: 2147483649 is out of range; allowed: \(ValueErrorTests.seconds)",
            "Policies/test.json: tiers.t.unversionedMaxTTL: -1 is out of range; allowed: \(ValueErrorTests.seconds)",
            "Policies/test.json: tiers.t.serveStaleOnError: -5 is out of range; allowed: \(ValueErrorTests.seconds)",
            "Policies/test.json: tiers.t.maxObjectBytes: 0 is out of range; allowed: an integer from 1 to 1099511627776 (bytes)",
            "Policies/test.json: tiers.t.maxPixels: 4294967297 is out of range; allowed: an integer from 1 to 4294967296 (pixels)",
            "Policies/test.json: tiers.t.memoryBytes: 1099511627777 is out of range; allowed: an integer from 0 to 1099511627776 (bytes)",
            "Policies/test.json: tiers.t.diskBytes: 99999999999999999999 is out of range; allowed: an integer from 0 to 1125899906842624 (bytes)",
            "Policies/test.json: tiers.t.originTimeout: 3600.5 is out of range; allowed: a number greater than 0 and at most 3600 (seconds)",
        ])
        #expect(Set(errors.map(\.code)) == [.outOfRange])
    }

    @Test func boundaryValuesLoad() throws {
        let policy = try PolicyFixture.load(PolicyFixture.tierPolicy(
            #"{ "storage": "disk", "maxTTL": 2147483648, "versionParameter": "v_1.x~-", "unversionedMaxTTL": 0, "serveStaleOnError": 2147483648, "maxObjectBytes": 1099511627776, "maxPixels": 4294967296, "memoryBytes": 0, "diskBytes": 1125899906842624, "originTimeout": 0.25, "contentTypes": ["*/*"], "downstreamCacheControl": "no-cache, x=\"a,b\"" }"#))
        let tier = try #require(policy.tiers["t"])
        #expect(tier == Tier(
            name: "t", storage: .disk, maxTTL: 2_147_483_648, versionParameter: "v_1.x~-", unversionedMaxTTL: 0,
            maxObjectBytes: 1_099_511_627_776, maxPixels: 4_294_967_296, contentTypes: ["*/*"],
            downstreamCacheControl: "no-cache, x=\"a,b\"", originTimeout: 0.25, memoryBytes: 0,
            diskBytes: 1_125_899_906_842_624, serveStaleOnError: 2_147_483_648))
        #expect(tier.validatesImages == false)
        #expect(tier.accepts(mediaType: "text/html") == true)
    }

    @Test func contentTypeLists() {
        #expect(messages(#"{ "storage": "disk", "contentTypes": ["image/png", "*/*", "image/svg+xml", "image/png", "Image/JPEG", 3] }"#) == [
            #"Policies/test.json: tiers.t.contentTypes[1]: "*/*" must be the only entry; allowed: \#(ValueErrorTests.types)"#,
            #"Policies/test.json: tiers.t.contentTypes[2]: "image/svg+xml" is not allowed; allowed: \#(ValueErrorTests.types)"#,
            #"Policies/test.json: tiers.t.contentTypes[3]: "image/png" is listed twice; allowed: \#(ValueErrorTests.types)"#,
            #"Policies/test.json: tiers.t.contentTypes[4]: "Image/JPEG" is not allowed (did you mean `image/jpeg`?); allowed: \#(ValueErrorTests.types)"#,
            #"Policies/test.json: tiers.t.contentTypes[5]: 3 is an integer; allowed: \#(ValueErrorTests.types)"#,
        ])
        #expect(messages(#"{ "storage": "disk", "contentTypes": [] }"#) == [
            #"Policies/test.json: tiers.t.contentTypes: an empty array accepts nothing; allowed: \#(ValueErrorTests.types)"#,
        ])
    }

    @Test func versionParameterAndCacheControlSyntax() {
        let cacheControl = "comma-separated Cache-Control directives (RFC 9111 §5.2) in visible ASCII, at most 1024 characters"
        #expect(messages(#"{ "storage": "disk", "versionParameter": "a=b", "downstreamCacheControl": "max age=1" }"#) == [
            #"Policies/test.json: tiers.t.versionParameter: "a=b" is not a valid parameter name; allowed: a query parameter name of 1 to 64 letters, digits, '-', '.', '_' or '~'"#,
            #"Policies/test.json: tiers.t.downstreamCacheControl: "max age=1" is not a valid Cache-Control value; allowed: \#(cacheControl)"#,
        ])
        #expect(messages(#"{ "storage": "disk", "versionParameter": "", "downstreamCacheControl": "" }"#) == [
            #"Policies/test.json: tiers.t.versionParameter: "" is not a valid parameter name; allowed: a query parameter name of 1 to 64 letters, digits, '-', '.', '_' or '~'"#,
            #"Policies/test.json: tiers.t.downstreamCacheControl: "" is not a valid Cache-Control value; allowed: \#(cacheControl)"#,
        ])
        #expect(messages(#"{ "storage": "disk", "downstreamCacheControl": "private, x=\"open" }"#) == [
            #"Policies/test.json: tiers.t.downstreamCacheControl: "private, x=\"open" is not a valid Cache-Control value; allowed: \#(cacheControl)"#,
        ])
        #expect(messages(#"{ "storage": "disk", "downstreamCacheControl": "no-cache\r\nSet-Cookie: a=b" }"#) == [
            #"Policies/test.json: tiers.t.downstreamCacheControl: "no-cache\r\nSet-Cookie: a=b" is not a valid Cache-Control value; allowed: \#(cacheControl)"#,
        ])
    }

    @Test func invalidTierNamesAndShapes() {
        #expect(PolicyFixture.messages(#"{ "tiers": { "Public Tier": { "storage": "disk" }, "t": "disk" }, "routes": [ \#(PolicyFixture.route) ] }"#) == [
            #"Policies/test.json: tiers.Public Tier: "Public Tier" is not a valid tier name; allowed: 1 to 64 lowercase letters, digits and '-', starting with a letter or digit"#,
            #"Policies/test.json: tiers.t: "disk" is a string; allowed: an object with keys \#(UnknownKeyTests.tierKeys)"#,
        ])
        #expect(PolicyFixture.messages(#"{ "tiers": [], "routes": {} }"#) == [
            "Policies/test.json: tiers: […] is an array; allowed: an object of tier name → tier object",
            "Policies/test.json: routes: {…} is an object; allowed: an array of route objects",
        ])
        #expect(PolicyFixture.messages(#"{ "$schema": 1, "tiers": {}, "routes": [] }"#) == [
            "Policies/test.json: $schema: 1 is an integer; allowed: a string (the JSON Schema URI, ignored)",
        ])
    }
}
