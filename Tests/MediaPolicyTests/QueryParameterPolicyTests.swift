import Testing
@testable import MediaPolicy

/// The tier keys `ignoredQueryParameters` and `passQueryParameters` (docs/policy-format.md, "Query parameters").
@Suite struct QueryParameterPolicyTests: TierPolicyTesting {
    static let variants = #""variants": { "widths": [144], "formats": ["jpeg"] }"#
    static let ignoredAllowed = "an array of at most 32 distinct query parameter names (1 to 64 letters, digits, '-', '.', '_' or '~'), each may end with '*' to match a prefix (\"utm_*\")"
    static let passAllowed = "an array of at most 32 distinct query parameter names (1 to 64 letters, digits, '-', '.', '_' or '~')"

    @Test func absentKeysIgnoreAndPassNothing() throws {
        let tier = try tier(#"{ "storage": "disk" }"#)
        #expect(tier.ignoredQueryParameters == [])
        #expect(tier.passQueryParameters == [])
        #expect(tier.query(withoutIgnored: "utm_source=x") == "utm_source=x")
    }

    @Test func bothKeysAreRead() throws {
        let tier = try tier(#"{ "storage": "disk", "ignoredQueryParameters": ["utm_*", "fbclid", "gclid"], "passQueryParameters": ["v"], \#(Self.variants) }"#)
        #expect(tier.ignoredQueryParameters == ["utm_*", "fbclid", "gclid"])
        #expect(tier.passQueryParameters == ["v"])
    }

    @Test func ignoredItemsAreRemovedByteForByte() throws {
        let tier = try tier(#"{ "storage": "disk", "ignoredQueryParameters": ["utm_*", "fbclid"] }"#)
        #expect(tier.query(withoutIgnored: nil) == nil)
        #expect(tier.query(withoutIgnored: "utm_source=x") == nil)
        #expect(tier.query(withoutIgnored: "w=144&utm_source=x&utm_medium=y&fbclid=z") == "w=144")
        #expect(tier.query(withoutIgnored: "fbclid&w=144") == "w=144")
        #expect(tier.query(withoutIgnored: "utm_=1&w=144") == "w=144")
        // Nothing ignored: the query as sent, empty items included.
        #expect(tier.query(withoutIgnored: "w=144&&fmt=webp") == "w=144&&fmt=webp")
        // Something ignored: empty items go too.
        #expect(tier.query(withoutIgnored: "w=144&&utm_x=1&") == "w=144")
        // Exact, case-sensitive, not decoded, no substring: these stay.
        #expect(tier.query(withoutIgnored: "UTM_source=x&fbclid2=1&xfbclid=1&utm%5Fsource=1&fbclid_=1")
            == "UTM_source=x&fbclid2=1&xfbclid=1&utm%5Fsource=1&fbclid_=1")
        // A value that looks like an ignored name is a value.
        #expect(tier.query(withoutIgnored: "a=fbclid") == "a=fbclid")
    }

    @Test func badEntriesNameTheKeyTheIndexAndTheAllowedValues() {
        #expect(messages(#"{ "storage": "disk", "ignoredQueryParameters": "utm_*" }"#) == [
            #"Policies/test.json: tiers.t.ignoredQueryParameters: "utm_*" is a string; allowed: \#(Self.ignoredAllowed)"#,
        ])
        #expect(messages(#"{ "storage": "disk", "ignoredQueryParameters": ["fbclid", "*"] }"#) == [
            #"Policies/test.json: tiers.t.ignoredQueryParameters[1]: "*" alone would match every parameter; allowed: \#(Self.ignoredAllowed)"#,
        ])
        #expect(messages(#"{ "storage": "disk", "ignoredQueryParameters": ["utm source"] }"#) == [
            #"Policies/test.json: tiers.t.ignoredQueryParameters[0]: "utm source" is not a valid parameter name; allowed: \#(Self.ignoredAllowed)"#,
        ])
        #expect(messages(#"{ "storage": "disk", "ignoredQueryParameters": ["a*b"] }"#) == [
            #"Policies/test.json: tiers.t.ignoredQueryParameters[0]: "a*b" is not a valid parameter name; allowed: \#(Self.ignoredAllowed)"#,
        ])
        #expect(messages(#"{ "storage": "disk", "ignoredQueryParameters": ["gclid", "gclid"] }"#) == [
            #"Policies/test.json: tiers.t.ignoredQueryParameters[1]: "gclid" is listed twice; allowed: \#(Self.ignoredAllowed)"#,
        ])
        #expect(messages(#"{ "storage": "disk", "passQueryParameters": ["v*"], \#(Self.variants) }"#) == [
            #"Policies/test.json: tiers.t.passQueryParameters[0]: "v*" is not a valid parameter name; allowed: \#(Self.passAllowed)"#,
        ])
        let many = (0...32).map { "\"p\($0)\"" }.joined(separator: ", ")
        #expect(messages(#"{ "storage": "disk", "ignoredQueryParameters": [\#(many)] }"#) == [
            "Policies/test.json: tiers.t.ignoredQueryParameters: 33 entries are more than 32; allowed: \(Self.ignoredAllowed)",
        ])
    }

    @Test func contradictionsNameBothKeys() {
        #expect(messages(#"{ "storage": "disk", "passQueryParameters": ["v"] }"#) == [
            #"Policies/test.json: tiers.t.passQueryParameters: without variants every query parameter is keyed and passed to the origin already; allowed: passQueryParameters only on a tier with variants"#,
        ])
        #expect(messages(#"{ "storage": "disk", "passQueryParameters": ["v", "fmt"], \#(Self.variants) }"#) == [
            #"Policies/test.json: tiers.t.passQueryParameters[1]: "fmt" is a variant parameter; allowed: a name other than w, h, fit, dpr, q, fmt, gravity, profile, info on a tier with variants"#,
        ])
        #expect(messages(#"{ "storage": "disk", "ignoredQueryParameters": ["utm_*", "f*"], \#(Self.variants) }"#) == [
            #"Policies/test.json: tiers.t.ignoredQueryParameters[1]: "f*" would ignore the variant parameter "fit"; allowed: entries that match none of w, h, fit, dpr, q, fmt, gravity, profile, info"#,
        ])
        #expect(messages(#"{ "storage": "disk", "versionParameter": "v", "ignoredQueryParameters": ["v"] }"#) == [
            #"Policies/test.json: tiers.t.ignoredQueryParameters[0]: "v" would ignore the versionParameter "v"; allowed: entries that match none of v"#,
        ])
        #expect(messages(#"{ "storage": "disk", "ignoredQueryParameters": ["ref*"], "passQueryParameters": ["ref"], \#(Self.variants) }"#) == [
            #"Policies/test.json: tiers.t.ignoredQueryParameters[0]: "ref*" would ignore a passQueryParameters entry "ref"; allowed: entries that match none of w, h, fit, dpr, q, fmt, gravity, profile, info, ref"#,
        ])
        // Without variants, w and f* are ordinary names.
        #expect(messages(#"{ "storage": "disk", "ignoredQueryParameters": ["w", "f*"] }"#) == [])
    }

    /// One run lists every contradiction of both lists, each with its index, not the first of each list.
    @Test func everyContradictionIsListedInOneRun() {
        #expect(messages(#"{ "storage": "disk", "versionParameter": "v", "ignoredQueryParameters": ["utm_*", "f*", "v", "q", "ref"], "passQueryParameters": ["w", "ref", "fmt"], \#(Self.variants) }"#) == [
            #"Policies/test.json: tiers.t.passQueryParameters[0]: "w" is a variant parameter; allowed: a name other than w, h, fit, dpr, q, fmt, gravity, profile, info on a tier with variants"#,
            #"Policies/test.json: tiers.t.passQueryParameters[2]: "fmt" is a variant parameter; allowed: a name other than w, h, fit, dpr, q, fmt, gravity, profile, info on a tier with variants"#,
            #"Policies/test.json: tiers.t.ignoredQueryParameters[1]: "f*" would ignore the variant parameter "fit"; allowed: entries that match none of w, h, fit, dpr, q, fmt, gravity, profile, info, v, ref"#,
            #"Policies/test.json: tiers.t.ignoredQueryParameters[2]: "v" would ignore the versionParameter "v"; allowed: entries that match none of w, h, fit, dpr, q, fmt, gravity, profile, info, v, ref"#,
            #"Policies/test.json: tiers.t.ignoredQueryParameters[3]: "q" would ignore the variant parameter "q"; allowed: entries that match none of w, h, fit, dpr, q, fmt, gravity, profile, info, v, ref"#,
            #"Policies/test.json: tiers.t.ignoredQueryParameters[4]: "ref" would ignore a passQueryParameters entry "ref"; allowed: entries that match none of w, h, fit, dpr, q, fmt, gravity, profile, info, v, ref"#,
        ])
        #expect(messages(#"{ "storage": "disk", "ignoredQueryParameters": ["v"], "passQueryParameters": ["v"] }"#) == [
            #"Policies/test.json: tiers.t.passQueryParameters: without variants every query parameter is keyed and passed to the origin already; allowed: passQueryParameters only on a tier with variants"#,
            #"Policies/test.json: tiers.t.ignoredQueryParameters[0]: "v" would ignore a passQueryParameters entry "v"; allowed: entries that match none of v"#,
        ])
    }

    /// A signed tier may not ignore its signature parameters: the signature is verified before anything is dropped,
    /// so such an entry would only work because of that order.
    @Test func aSignedTierMayNotIgnoreItsSignatureParameters() {
        let signed = #""storage": "encrypted-disk", "cache": "private", "credentials": "strip", "partition": "credential", "signedURLs": { "keys": "r.keys" }"#
        #expect(messages(#"{ \#(signed), "ignoredQueryParameters": ["utm_*", "sig", "s*", "kid", "e*"] }"#) == [
            #"Policies/test.json: tiers.t.ignoredQueryParameters[1]: "sig" would ignore the signature parameter "sig"; allowed: entries that match none of exp, sub, kid, sig"#,
            #"Policies/test.json: tiers.t.ignoredQueryParameters[2]: "s*" would ignore the signature parameter "sub"; allowed: entries that match none of exp, sub, kid, sig"#,
            #"Policies/test.json: tiers.t.ignoredQueryParameters[3]: "kid" would ignore the signature parameter "kid"; allowed: entries that match none of exp, sub, kid, sig"#,
            #"Policies/test.json: tiers.t.ignoredQueryParameters[4]: "e*" would ignore the signature parameter "exp"; allowed: entries that match none of exp, sub, kid, sig"#,
        ])
        // Without signedURLs they are ordinary names.
        #expect(messages(#"{ "storage": "disk", "ignoredQueryParameters": ["sig", "s*"] }"#) == [])
    }
}
