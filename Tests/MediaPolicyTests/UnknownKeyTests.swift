import Testing
@testable import MediaPolicy

@Suite struct UnknownKeyTests {
    static let tierKeys = "animation, cache, contentTypes, cors, credentials, defaultTTL, diskBytes, downstreamCacheControl, errorTTL, forwardInterim, forwardRequestHeaders, heuristic, ignoredQueryParameters, keyLifetime, maxObjectBytes, maxPixels, maxTTL, memoryBytes, metadata, originTimeout, partition, passQueryParameters, serveStaleOnError, setCookie, signedURLs, storage, tagHeader, targetedCacheControl, unversionedMaxTTL, variants, versionParameter"

    @Test func misspelledMaxTTLNamesTheKeyAndSuggestsTheRightOne() {
        let errors = PolicyFixture.errors(
            #"{ "tiers": { "public": { "storage": "disk", "maxTTTL": 60 } }, "routes": [ { "name": "r", "mount": "/r/", "origin": "http://o.example/", "tier": "public" } ] }"#,
            file: "Policies/default.json")
        #expect(errors.count == 1)
        let error = errors[0]
        #expect(error.code == .unknownKey)
        #expect(error.code.rawValue == "unknown-key")
        #expect(error.file == "Policies/default.json")
        #expect(error.keyPath == "tiers.public.maxTTTL")
        #expect(error.value == "60")
        #expect(error.problem == "unknown key (did you mean `maxTTL`?)")
        #expect(error.allowed == UnknownKeyTests.tierKeys)
        #expect(error.description
            == "Policies/default.json: tiers.public.maxTTTL: unknown key (did you mean `maxTTL`?); allowed: \(UnknownKeyTests.tierKeys)")
    }

    @Test func unknownKeyWithoutACloseMatchHasNoSuggestion() {
        #expect(PolicyFixture.messages(PolicyFixture.tierPolicy(#"{ "storage": "disk", "colour": "red" }"#)) == [
            "Policies/test.json: tiers.t.colour: unknown key; allowed: \(UnknownKeyTests.tierKeys)",
        ])
    }

    @Test func caseMistakesAreSuggested() {
        #expect(PolicyFixture.messages(PolicyFixture.tierPolicy(#"{ "storage": "disk", "maxttl": 60 }"#)) == [
            "Policies/test.json: tiers.t.maxttl: unknown key (did you mean `maxTTL`?); allowed: \(UnknownKeyTests.tierKeys)",
        ])
    }

    /// Found by Fuzz/FuzzPolicyLoader: a key with an escaped newline (`"orig\n"`) put a raw line break
    /// into the key path, so one error printed as two lines. Such keys are quoted as JSON strings.
    @Test func keyWithControlCharacterIsQuotedInTheKeyPath() {
        let errors = PolicyFixture.errors(PolicyFixture.routePolicy(
            #"{ "name": "r", "mount": "/r/", "orig\n": "http://o.example/", "origin": "http://o.example/", "tier": "t" }"#))
        #expect(errors.map(\.keyPath) == [#"routes[0]."orig\n""#])
        #expect(errors.map(\.description) == [
            #"Policies/test.json: routes[0]."orig\n": unknown key (did you mean `origin`?); allowed: cors, methods, mount, name, origin, originAuthorization, subjectHeader, targetedCacheControl, tier"#,
        ])
        #expect(PolicyFixture.messages(#"{ "tiers": { "a\u0007b": { "storage": "disk" } }, "routes": [] }"#) == [
            #"Policies/test.json: tiers."a\u0007b": "a\u0007b" is not a valid tier name; allowed: 1 to 64 lowercase letters, digits and '-', starting with a letter or digit"#,
        ])
        #expect(PolicyFileDecoder.segment("maxTTL") == "maxTTL")
        #expect(PolicyFileDecoder.segment("a\u{7F}") == #""a\u007f""#)
    }

    /// Found by Fuzz/FuzzPolicyLoader: a top-level key starting with a combining mark (`"\u{484}outes"`) joined
    /// the space of `file: ` into one character, so the description no longer began with `file: `. Such keys
    /// are quoted too.
    @Test func keyStartingWithACombiningMarkIsQuoted() throws {
        let text = "{ \"tiers\": { \"t\": { \"storage\": \"memory\" } }, \"\u{484}outes\": [] }"
        let errors = PolicyFixture.errors(text)
        let description = try #require(errors.first?.description)
        #expect(description.hasPrefix("Policies/test.json: "))
        #expect(description.unicodeScalars.starts(with: "Policies/test.json: \"\u{484}outes\": unknown key".unicodeScalars))
        #expect(PolicyFileDecoder.segment("\u{301}x") == "\"\u{301}x\"")
        #expect(PolicyFileDecoder.segment("x\u{301}") == "x\u{301}")
    }

    @Test func unknownTopLevelKey() {
        let text = #"{ "tier": {}, "routes": [] }"#
        #expect(PolicyFixture.messages(text) == [
            "Policies/test.json: tier: unknown key (did you mean `tiers`?); allowed: $schema, routes, tiers",
        ])
    }

    @Test func unknownRouteKey() {
        let text = PolicyFixture.routePolicy(#"{ "name": "r", "mount": "/r/", "origin": "http://o.example/", "tier": "t", "method": "all" }"#)
        #expect(PolicyFixture.messages(text) == [
            "Policies/test.json: routes[0].method: unknown key (did you mean `methods`?); allowed: cors, methods, mount, name, origin, originAuthorization, subjectHeader, targetedCacheControl, tier",
        ])
    }

    @Test func repeatedKeyInOneObject() {
        let errors = PolicyFixture.errors(PolicyFixture.tierPolicy(#"{ "storage": "disk", "maxTTL": 60, "maxTTL": 600 }"#))
        #expect(errors.map(\.description) == [
            "Policies/test.json: tiers.t.maxTTL: duplicate key; allowed: each key once per object",
        ])
        #expect(errors.first?.code == .duplicateKey)
        #expect(errors.first?.value == "600")
    }

    @Test func everyUnknownKeyIsReported() {
        let text = PolicyFixture.tierPolicy(#"{ "storage": "disk", "maxTTTL": 60, "maxPixel": 5 }"#)
        #expect(PolicyFixture.messages(text) == [
            "Policies/test.json: tiers.t.maxTTTL: unknown key (did you mean `maxTTL`?); allowed: \(UnknownKeyTests.tierKeys)",
            "Policies/test.json: tiers.t.maxPixel: unknown key (did you mean `maxPixels`?); allowed: \(UnknownKeyTests.tierKeys)",
        ])
    }

    @Test func suggestionDistance() {
        #expect(KeySuggestion.closest(to: "maxTTTL", in: PolicyFormat.tierKeys) == "maxTTL")
        #expect(KeySuggestion.closest(to: "strage", in: PolicyFormat.tierKeys) == "storage")
        #expect(KeySuggestion.closest(to: "xyz", in: PolicyFormat.tierKeys) == nil)
        #expect(KeySuggestion.editDistance(Array("kitten".unicodeScalars), Array("sitting".unicodeScalars)) == 3)
    }
}
