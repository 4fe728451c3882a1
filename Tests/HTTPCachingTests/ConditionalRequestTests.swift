import MediaCore
import Testing
@testable import HTTPCaching

@Suite struct ConditionalRequestTests {
    let t0 = Fixture.t0
    let lastModified = HTTPDate.format(Fixture.t0 - 86_400)

    @Test func ifNoneMatchListsEveryStoredEntityTag() {
        let a = Fixture.stored([("Cache-Control", "max-age=1"), ("ETag", "\"a1\"")])
        let b = Fixture.stored([("Cache-Control", "max-age=1"), ("ETag", "W/\"a2\"")])
        let c = Fixture.stored([("Cache-Control", "max-age=1"), ("ETag", "\"a1\"")])
        #expect(ConditionalRequest.fields(candidates: [a, b, c], validating: 0) == HTTPFields([("If-None-Match", "\"a1\", W/\"a2\"")]))
    }

    @Test func ifModifiedSinceWhenNoEntityTag() {
        let a = Fixture.stored([("Cache-Control", "max-age=1"), ("Last-Modified", lastModified)])
        #expect(ConditionalRequest.fields(candidates: [a], validating: 0) == HTTPFields([("If-Modified-Since", lastModified)]))
    }

    @Test func entityTagPreferredOverLastModified() {
        let a = Fixture.stored([("ETag", "\"v1\""), ("Last-Modified", lastModified)])
        #expect(ConditionalRequest.fields(candidates: [a], validating: 0) == HTTPFields([("If-None-Match", "\"v1\"")]))
    }

    @Test func noValidatorNoFields() {
        let a = Fixture.stored([("Cache-Control", "max-age=1"), ("Last-Modified", "bogus")])
        #expect(ConditionalRequest.fields(candidates: [a], validating: 0).isEmpty == true)
        #expect(ConditionalRequest.fields(candidates: [], validating: nil).isEmpty == true)
    }

    @Test func staleResponseWithValidatorIsRevalidated() {
        let a = Fixture.stored([("Cache-Control", "max-age=60"), ("ETag", "\"v1\"")])
        #expect(Fixture.decide([a], now: t0 + 61) == .revalidate(index: 0, conditionalFields: ["If-None-Match": "\"v1\""]))
    }

    @Test func staleResponseWithoutValidatorIsFetched() {
        let a = Fixture.stored([("Cache-Control", "max-age=60")])
        #expect(Fixture.decide([a], now: t0 + 61) == .fetch)
    }

    @Test func nonMatchingVariantsStillOfferTheirTags() {
        let key = Vary.secondaryKey(for: ["Accept": "image/avif"], fieldNames: ["accept"], digest: Fixture.digest)
        let a = Fixture.stored([("Cache-Control", "max-age=600"), ("Vary", "Accept"), ("ETag", "\"avif\"")], key: key)
        #expect(Fixture.decide([a], request: [("Accept", "image/webp")], now: t0)
            == .revalidate(index: nil, conditionalFields: ["If-None-Match": "\"avif\""]))
    }

    @Test func clientIfNoneMatch() {
        let a = Fixture.stored([("ETag", "\"v1\""), ("Last-Modified", lastModified)])
        #expect(ConditionalRequest.isNotModified(requestFields: ["If-None-Match": "\"x\", W/\"v1\""], stored: a) == true)
        #expect(ConditionalRequest.isNotModified(requestFields: ["If-None-Match": "\"x\""], stored: a) == false)
        #expect(ConditionalRequest.isNotModified(requestFields: ["If-None-Match": "*"], stored: a) == true)
        // If-None-Match takes precedence over If-Modified-Since.
        #expect(ConditionalRequest.isNotModified(requestFields: HTTPFields([("If-None-Match", "\"x\""),
                                                                            ("If-Modified-Since", HTTPDate.format(t0))]), stored: a) == false)
    }

    @Test func clientIfModifiedSince() {
        let a = Fixture.stored([("Last-Modified", lastModified)])
        #expect(ConditionalRequest.isNotModified(requestFields: ["If-Modified-Since": lastModified], stored: a) == true)
        #expect(ConditionalRequest.isNotModified(requestFields: ["If-Modified-Since": HTTPDate.format(t0 - 86_401)], stored: a) == false)
        #expect(ConditionalRequest.isNotModified(requestFields: ["If-Modified-Since": "yesterday"], stored: a) == false)
        let dated = Fixture.stored([])
        #expect(ConditionalRequest.isNotModified(requestFields: ["If-Modified-Since": HTTPDate.format(t0)], stored: dated) == true)
    }

    @Test func originOnlyConditionalsAreNotEvaluated() {
        let a = Fixture.stored([("ETag", "\"v1\""), ("Last-Modified", lastModified)])
        for pair in [("If-Match", "\"v1\""), ("If-Unmodified-Since", HTTPDate.format(Fixture.t0)), ("If-Range", "\"v1\"")] {
            #expect(ConditionalRequest.isNotModified(requestFields: HTTPFields([pair]), stored: a) == false, "\(pair.0)")
        }
    }

    @Test func entityTagParsing() {
        #expect(EntityTag("\"v1\"") == EntityTag(opaqueTag: "\"v1\""))
        #expect(EntityTag("W/\"v1\"") == EntityTag(opaqueTag: "\"v1\"", isWeak: true))
        #expect(EntityTag("v1") == nil)
        #expect(EntityTag("\"a\"b\"") == nil)
        #expect(EntityTag("\"") == nil)
        #expect(EntityTag.list("\"a\", junk, W/\"b\"").map(\.description) == ["\"a\"", "W/\"b\""])
    }

    @Test func entityTagComparison() {
        let strong = EntityTag(opaqueTag: "\"1\""), weak = EntityTag(opaqueTag: "\"1\"", isWeak: true)
        #expect(strong.strongMatches(strong) == true)
        #expect(strong.strongMatches(weak) == false)
        #expect(weak.weakMatches(strong) == true)
        #expect(strong.weakMatches(EntityTag(opaqueTag: "\"2\"")) == false)
    }
}
