import Testing
@testable import MediaPolicy

/// The tier keys `variants` and `metadata` (docs/variants.md, docs/policy-format.md).
@Suite struct VariantPolicyTests: TierPolicyTesting {
    static let sizes = "a non-empty array of at most 16 distinct integers from 1 to 8192 (pixels), ascending"
    static let formats = "a non-empty array of distinct jpeg, webp, avif, png, jxl"

    @Test func fullDeclarationLoadsWithExactValues() throws {
        let policy = try PolicyFixture.load(PolicyFixture.tierPolicy(#"""
            { "storage": "disk", "metadata": "strip",
              "variants": { "widths": [72, 144], "heights": [96], "formats": ["webp", "jpeg"], "maxDpr": 2,
                            "quality": 70, "maxOutputPixels": 20000, "maxAVIFWidth": 288, "clientHints": true } }
            """#))
        let tier = try #require(policy.tier(named: "t"))
        #expect(tier.metadata == .strip)
        #expect(tier.variants == Tier.Variants(widths: [72, 144], heights: [96], formats: ["webp", "jpeg"], maxDpr: 2,
                                               quality: 70, maxOutputPixels: 20_000, maxAVIFWidth: 288, clientHints: true))
        #expect(tier.variants?.outputPixelCap == 20_000)
    }

    @Test func defaultsOfAMinimalDeclaration() throws {
        let policy = try PolicyFixture.load(PolicyFixture.tierPolicy(
            #"{ "storage": "memory", "variants": { "widths": [100, 300], "formats": ["jpeg"] } }"#))
        let variants = try #require(policy.tier(named: "t")?.variants)
        #expect(variants == Tier.Variants(widths: [100, 300], formats: ["jpeg"]))
        #expect(variants.maxDpr == 1)
        #expect(variants.quality == 80)
        #expect(variants.maxAVIFWidth == 576)
        #expect(variants.clientHints == false)
        #expect(variants.heights == nil)
        #expect(variants.outputPixelCap == 90_000)
        #expect(policy.tier(named: "t")?.metadata == .keep)
    }

    @Test func missingRequiredKeys() {
        #expect(messages(#"{ "storage": "disk", "variants": {} }"#) == [
            "Policies/test.json: tiers.t.variants.formats: missing required key; allowed: \(VariantPolicyTests.formats)",
            "Policies/test.json: tiers.t.variants.widths: missing required key; allowed: \(VariantPolicyTests.sizes)",
        ])
    }

    @Test func clientProfilesAreReadAndChecked() throws {
        let policy = try PolicyFixture.load(PolicyFixture.tierPolicy(#"""
            { "storage": "disk", "variants": { "widths": [72, 144], "formats": ["jpeg", "webp", "avif"],
              "clientProfiles": { "ios17": ["avif", "webp", "jpeg"], "android12": ["webp", "jpeg"] } } }
            """#))
        #expect(policy.tier(named: "t")?.variants?.clientProfiles == ["ios17": ["avif", "webp", "jpeg"], "android12": ["webp", "jpeg"]])
        let allowed = "an object of at most 16 profiles, each named by 1 to 32 of a-z 0-9 - and listing formats in order of preference"
        #expect(messages(#"{ "storage": "disk", "variants": { "widths": [72], "formats": ["jpeg"], "clientProfiles": ["ios17"] } }"#) == [
            "Policies/test.json: tiers.t.variants.clientProfiles: […] is an array; allowed: \(allowed)",
        ])
        #expect(messages(#"{ "storage": "disk", "variants": { "widths": [72], "formats": ["jpeg"], "clientProfiles": { "iOS 17": ["jpeg"], "ok": ["jpg"], "empty": [] } } }"#) == [
            #"Policies/test.json: tiers.t.variants.clientProfiles.iOS 17: "iOS 17" is not a profile name; allowed: \#(allowed)"#,
            #"Policies/test.json: tiers.t.variants.clientProfiles.ok[0]: "jpg" is not allowed (did you mean `jpeg`?); allowed: \#(Self.formats)"#,
            "Policies/test.json: tiers.t.variants.clientProfiles.empty: an empty array allows no variant; allowed: \(Self.formats)",
        ])
        #expect(messages(#"{ "storage": "disk", "variants": { "widths": [72], "formats": ["jpeg"], "clientProfiles": { "ios17": ["avif", "webp"] } } }"#) == [
            "Policies/test.json: tiers.t.variants.clientProfiles.ios17: no format it lists is one of the tier's formats (jpeg); allowed: a list with at least one of the tier's formats",
        ])
    }

    @Test func clientHintsIsABoolean() {
        #expect(messages(#"{ "storage": "disk", "variants": { "widths": [72], "formats": ["jpeg"], "clientHints": "yes" } }"#) == [
            #"Policies/test.json: tiers.t.variants.clientHints: "yes" is a string; allowed: true or false"#,
        ])
        #expect(messages(#"{ "storage": "disk", "variants": { "widths": [72], "formats": ["jpeg"], "clientHints": 1 } }"#) == [
            "Policies/test.json: tiers.t.variants.clientHints: 1 is an integer; allowed: true or false",
        ])
    }

    @Test func unknownVariantKeySuggests() {
        #expect(messages(#"{ "storage": "disk", "variants": { "widths": [72], "formats": ["jpeg"], "maxDPR": 2 } }"#) == [
            "Policies/test.json: tiers.t.variants.maxDPR: unknown key (did you mean `maxDpr`?); allowed: avifEffort, clientHints, clientProfiles, formats, heights, maxAVIFWidth, maxDpr, maxOutputPixels, quality, widths",
        ])
    }

    @Test func badSizes() {
        #expect(messages(#"{ "storage": "disk", "variants": { "widths": [], "formats": ["jpeg"] } }"#) == [
            "Policies/test.json: tiers.t.variants.widths: [] is an array; allowed: \(VariantPolicyTests.sizes)"
                .replacingOccurrences(of: "[] is an array", with: "an empty array allows no variant"),
        ])
        #expect(messages(#"{ "storage": "disk", "variants": { "widths": [144, 72], "formats": ["jpeg"] } }"#) == [
            "Policies/test.json: tiers.t.variants.widths[1]: 72 is smaller than the entry before it; allowed: \(VariantPolicyTests.sizes)",
        ])
        #expect(messages(#"{ "storage": "disk", "variants": { "widths": [72, 72], "formats": ["jpeg"] } }"#) == [
            "Policies/test.json: tiers.t.variants.widths[1]: 72 is listed twice; allowed: \(VariantPolicyTests.sizes)",
        ])
        #expect(messages(#"{ "storage": "disk", "variants": { "widths": [0], "heights": [9000], "formats": ["jpeg"] } }"#) == [
            "Policies/test.json: tiers.t.variants.widths[0]: 0 is out of range; allowed: an integer from 1 to 8192 (pixels)",
            "Policies/test.json: tiers.t.variants.heights[0]: 9000 is out of range; allowed: an integer from 1 to 8192 (pixels)",
        ])
        #expect(messages(#"{ "storage": "disk", "variants": { "widths": "72", "formats": ["jpeg"] } }"#) == [
            #"Policies/test.json: tiers.t.variants.widths: "72" is a string; allowed: \#(VariantPolicyTests.sizes)"#,
        ])
        let many = (1...17).map(String.init).joined(separator: ", ")
        #expect(messages(#"{ "storage": "disk", "variants": { "widths": [\#(many)], "formats": ["jpeg"] } }"#) == [
            "Policies/test.json: tiers.t.variants.widths: 17 entries are too many; allowed: \(VariantPolicyTests.sizes)",
        ])
    }

    @Test func everyBadElementIsReported() {
        #expect(messages(#"{ "storage": "disk", "variants": { "widths": [288, 144, 0], "formats": ["jpg", "gif", "webp", "webp"] } }"#) == [
            "Policies/test.json: tiers.t.variants.widths[1]: 144 is smaller than the entry before it; allowed: \(VariantPolicyTests.sizes)",
            "Policies/test.json: tiers.t.variants.widths[2]: 0 is out of range; allowed: an integer from 1 to 8192 (pixels)",
            #"Policies/test.json: tiers.t.variants.formats[0]: "jpg" is not allowed (did you mean `jpeg`?); allowed: \#(VariantPolicyTests.formats)"#,
            #"Policies/test.json: tiers.t.variants.formats[1]: "gif" is not allowed (did you mean `avif`?); allowed: \#(VariantPolicyTests.formats)"#,
            #"Policies/test.json: tiers.t.variants.formats[3]: "webp" is listed twice; allowed: \#(VariantPolicyTests.formats)"#,
        ])
    }

    @Test func anOutputCapBelowTheLargestWidthIsAContradiction() {
        #expect(messages(#"{ "storage": "disk", "variants": { "widths": [144, 288], "formats": ["jpeg"], "maxOutputPixels": 100 } }"#) == [
            "Policies/test.json: tiers.t.variants.maxOutputPixels: 100 pixels cannot hold the width 288 (one row of it is 288 pixels): that width could never be served; allowed: at least the largest width, 288, or widths that fit",
        ])
    }

    @Test func badFormats() {
        #expect(messages(#"{ "storage": "disk", "variants": { "widths": [72], "formats": ["jpg"] } }"#) == [
            #"Policies/test.json: tiers.t.variants.formats[0]: "jpg" is not allowed (did you mean `jpeg`?); allowed: \#(VariantPolicyTests.formats)"#,
        ])
        #expect(messages(#"{ "storage": "disk", "variants": { "widths": [72], "formats": ["png", "png"] } }"#) == [
            #"Policies/test.json: tiers.t.variants.formats[1]: "png" is listed twice; allowed: \#(VariantPolicyTests.formats)"#,
        ])
        #expect(messages(#"{ "storage": "disk", "variants": { "widths": [72], "formats": [] } }"#) == [
            "Policies/test.json: tiers.t.variants.formats: [] is an array; allowed: \(VariantPolicyTests.formats)"
                .replacingOccurrences(of: "[] is an array", with: "an empty array allows no variant"),
        ])
    }

    @Test func badNumbers() {
        #expect(messages(#"{ "storage": "disk", "variants": { "widths": [72], "formats": ["jpeg"], "maxDpr": 5, "quality": 0, "maxAVIFWidth": 9000, "maxOutputPixels": 0 } }"#) == [
            "Policies/test.json: tiers.t.variants.maxDpr: 5 is out of range; allowed: an integer from 1 to 4 (device-pixel ratio)",
            "Policies/test.json: tiers.t.variants.quality: 0 is out of range; allowed: an integer from 1 to 100 (encoder quality, or an object of it per format)",
            "Policies/test.json: tiers.t.variants.maxOutputPixels: 0 is out of range; allowed: an integer from 1 to 67108864 (pixels)",
            "Policies/test.json: tiers.t.variants.maxAVIFWidth: 9000 is out of range; allowed: an integer from 1 to 8192 (pixels)",
        ])
    }

    @Test func perFormatQualityAndAVIFEffort() throws {
        let policy = try PolicyFixture.load(PolicyFixture.tierPolicy(#"""
            { "storage": "disk", "variants": { "widths": [72], "formats": ["jpeg", "webp", "avif", "jxl"],
              "quality": { "jpeg": 80, "webp": 79, "avif": 63, "jxl": 77 }, "avifEffort": 6 } }
            """#))
        let variants = try #require(policy.tier(named: "t")?.variants)
        #expect(variants.qualities == ["jpeg": 80, "webp": 79, "avif": 63, "jxl": 77])
        #expect(variants.quality == 80)
        #expect(variants.avifEffort == 6)
        #expect(try #require(try PolicyFixture.load(PolicyFixture.tierPolicy(
            #"{ "storage": "disk", "variants": { "widths": [72], "formats": ["jpeg"], "quality": 70 } }"#)).tier(named: "t")?.variants)
            == Tier.Variants(widths: [72], formats: ["jpeg"], quality: 70))
        #expect(messages(#"{ "storage": "disk", "variants": { "widths": [72], "formats": ["jpeg"], "quality": { "jpg": 80, "webp": 101, "avif": "63" }, "avifEffort": 10 } }"#) == [
            "Policies/test.json: tiers.t.variants.quality.jpg: unknown key (did you mean `jpeg`?); allowed: jpeg, webp, avif, png, jxl",
            "Policies/test.json: tiers.t.variants.quality.webp: 101 is out of range; allowed: an integer from 1 to 100 (encoder quality)",
            #"Policies/test.json: tiers.t.variants.quality.avif: "63" is a string; allowed: an integer from 1 to 100 (encoder quality)"#,
            "Policies/test.json: tiers.t.variants.avifEffort: 10 is out of range; allowed: an integer from 0 to 9 (0 fastest, 9 smallest)",
        ])
        #expect(messages(#"{ "storage": "disk", "variants": { "widths": [72], "formats": ["jpeg"], "quality": {} } }"#) == [
            "Policies/test.json: tiers.t.variants.quality: an empty object sets no quality; allowed: an integer from 1 to 100, or an object of format names to one",
        ])
    }

    @Test func badMetadataValue() {
        #expect(messages(#"{ "storage": "disk", "metadata": "remove" }"#) == [
            #"Policies/test.json: tiers.t.metadata: "remove" is not allowed; allowed: keep, strip"#,
        ])
    }

    @Test func contradictions() {
        #expect(messages(#"{ "storage": "memory", "contentTypes": ["*/*"], "metadata": "strip", "variants": { "widths": [72], "formats": ["jpeg"] } }"#) == [
            #"Policies/test.json: tiers.t.variants: variants are derived from images, but contentTypes ["*/*"] turns image validation off; allowed: variants only on a tier with image contentTypes"#,
            #"Policies/test.json: tiers.t.metadata: "strip" removes image metadata, but contentTypes ["*/*"] turns image validation off; allowed: metadata "keep" when contentTypes is ["*/*"]"#,
        ])
        #expect(messages(#"{ "storage": "disk", "versionParameter": "w", "variants": { "widths": [72], "formats": ["jpeg"] } }"#) == [
            #"Policies/test.json: tiers.t.versionParameter: "w" is also a variant parameter; allowed: a name other than w, h, fit, dpr, q, fmt, gravity, profile, info on a tier with variants"#,
        ])
    }
}
