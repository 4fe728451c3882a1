import Testing
@testable import MediaPolicy

/// The tier key `animation` (docs/variants.md "Animation", docs/policy-format.md).
@Suite struct AnimationPolicyTests: TierPolicyTesting {
    static let variants = #""variants": { "widths": [72, 144], "formats": ["jpeg", "webp"] }"#

    @Test func theBudgetLoadsWithItsDefaults() throws {
        let full = try PolicyFixture.load(PolicyFixture.tierPolicy(
            #"{ "storage": "disk", \#(Self.variants), "animation": { "maxFrames": 60, "maxPixels": 1000000 } }"#))
        #expect(full.tier(named: "t")?.animation == Tier.Animation(maxFrames: 60, maxPixels: 1_000_000))
        let empty = try PolicyFixture.load(PolicyFixture.tierPolicy(#"{ "storage": "disk", \#(Self.variants), "animation": {} }"#))
        #expect(empty.tier(named: "t")?.animation == Tier.Animation(maxFrames: 120, maxPixels: 50_000_000))
        let none = try PolicyFixture.load(PolicyFixture.tierPolicy(#"{ "storage": "disk", \#(Self.variants) }"#))
        #expect(none.tier(named: "t")?.animation == nil)
    }

    @Test func badValuesNameTheKeyAndTheAllowedValues() {
        #expect(messages(#"{ "storage": "disk", \#(Self.variants), "animation": { "maxFrames": 1, "maxPixels": 0 } }"#) == [
            "Policies/test.json: tiers.t.animation.maxFrames: 1 is out of range; allowed: an integer from 2 to 10000 (frames)",
            "Policies/test.json: tiers.t.animation.maxPixels: 0 is out of range; allowed: an integer from 1 to 1000000000 (source pixels: width × height × frames)",
        ])
        #expect(messages(#"{ "storage": "disk", \#(Self.variants), "animation": { "frames": 10 } }"#) == [
            "Policies/test.json: tiers.t.animation.frames: unknown key; allowed: maxFrames, maxPixels",
        ])
        #expect(messages(#"{ "storage": "disk", \#(Self.variants), "animation": true }"#) == [
            "Policies/test.json: tiers.t.animation: true is a boolean; allowed: an object with keys maxFrames, maxPixels",
        ])
        #expect(messages(#"{ "storage": "disk", "animation": {} }"#) == [
            "Policies/test.json: tiers.t.animation: animation budgets derived images, but the tier has no variants; allowed: animation together with variants, or no animation",
        ])
    }
}
