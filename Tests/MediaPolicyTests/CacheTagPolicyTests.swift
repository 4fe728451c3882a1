import MediaCore
import Testing
@testable import MediaPolicy

/// The tier key `tagHeader` and the tags of an origin answer (docs/policy-format.md, "Cache tags").
@Suite struct CacheTagPolicyTests: TierPolicyTesting {
    static let allowed = "a response field name (RFC 9110 token, at most 64 characters) such as \"Surrogate-Key\" or \"Cache-Tag\", not a field HTTP or the cache owns"

    @Test func theHeaderIsReadAndTagsAreSplitOnSpaces() throws {
        let tier = try tier(#"{ "storage": "disk", "tagHeader": "Surrogate-Key" }"#)
        #expect(tier.tagHeader == "Surrogate-Key")
        var fields = HTTPFields([("surrogate-key", "product-42  summer-sale\tproduct-42")])
        fields.append("Surrogate-Key", "blue")
        #expect(tier.cacheTags(in: fields) == ["product-42", "summer-sale", "blue"])
        #expect(tier.cacheTags(in: HTTPFields([("Cache-Tag", "x")])) == [])
        #expect(try self.tier(#"{ "storage": "disk" }"#).cacheTags(in: fields) == [])
    }

    @Test func atMost128TagsOfAtMost256BytesAreKept() throws {
        let tier = try tier(#"{ "storage": "disk", "tagHeader": "Surrogate-Key" }"#)
        let many = (1...200).map { "t\($0)" }.joined(separator: " ")
        #expect(tier.cacheTags(in: HTTPFields([("Surrogate-Key", many)])) == (1...128).map { "t\($0)" })
        let long = String(repeating: "a", count: 257)
        #expect(tier.cacheTags(in: HTTPFields([("Surrogate-Key", "\(long) ok")])) == ["ok"])
        #expect(Tier.isCacheTag(String(repeating: "a", count: 256)))
        #expect(!Tier.isCacheTag(""))
        #expect(!Tier.isCacheTag("a b"))
        #expect(!Tier.isCacheTag("é"))
    }

    @Test func badHeaderNamesAreRefused() {
        #expect(messages(#"{ "storage": "disk", "tagHeader": "Surrogate Key" }"#) == [
            "Policies/test.json: tiers.t.tagHeader: \"Surrogate Key\" is not a field name; allowed: \(Self.allowed)",
        ])
        #expect(messages(#"{ "storage": "disk", "tagHeader": "Cache-Control" }"#) == [
            "Policies/test.json: tiers.t.tagHeader: \"Cache-Control\" is a field HTTP or the cache owns; allowed: \(Self.allowed)",
        ])
        // Fields mediactl writes itself: a tag field of that name would work only by the order of drop and write.
        for name in ["X-Request-Id", "x-request-id", "Access-Control-Allow-Origin", "Referrer-Policy", "Accept-Ranges"] {
            #expect(messages(#"{ "storage": "disk", "tagHeader": "\#(name)" }"#) == [
                "Policies/test.json: tiers.t.tagHeader: \"\(name)\" is a field HTTP or the cache owns; allowed: \(Self.allowed)",
            ])
        }
        #expect(messages(#"{ "storage": "disk", "tagHeader": ["Surrogate-Key"] }"#) == [
            "Policies/test.json: tiers.t.tagHeader: […] is an array; allowed: \(Self.allowed)",
        ])
    }
}
