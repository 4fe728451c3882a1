import MediaCore
import Testing
@testable import HTTPCaching

@Suite struct AuthorizationTests {
    let authorized = HTTPFields([("Authorization", "Bearer t1")])

    func verdict(_ cacheControl: String, role: CacheRole = .shared) -> String? {
        Storability.evaluate(method: "GET", requestFields: authorized, status: 200,
                             responseFields: HTTPFields([("Cache-Control", cacheControl)]), role: role).reason?.code
    }

    @Test func authorizationInSharedCacheIsNotStored() {
        #expect(verdict("max-age=60") == "authorization-in-shared-cache")
    }

    @Test func explicitSharedCachingDirectivesAllowIt() {
        #expect(verdict("public, max-age=60") == nil)
        #expect(verdict("s-maxage=60") == nil)
        #expect(verdict("must-revalidate, max-age=60") == nil)
    }

    @Test func privateCacheMayStore() {
        #expect(verdict("max-age=60", role: .private) == nil)
    }

    @Test func errorAnswerToCredentialedRequestNotStoredShared() {
        #expect(Storability.evaluate(method: "GET", requestFields: authorized, status: 403,
                                     responseFields: ["Cache-Control": "max-age=30"], role: .shared).reason == .authorizationInSharedCache)
    }

    @Test func emptyAuthorizationStillCounts() {
        #expect(Storability.evaluate(method: "GET", requestFields: ["Authorization": ""], status: 200,
                                     responseFields: ["Cache-Control": "max-age=30"], role: .shared).reason == .authorizationInSharedCache)
    }

    @Test func secondaryKeyNeverHoldsRawToken() throws {
        let key = try #require(Vary.secondaryKey(request: authorized, responseFields: ["Vary": "Authorization"], digest: Fixture.digest))
        #expect(key.entries == [SecondaryKey.Entry(name: "authorization", value: Fixture.digest("Bearer t1"))])
        #expect(key.canonicalForm.contains("t1") == false)
    }

    @Test func otherUserMissesOnVaryAuthorization() {
        let key = Vary.secondaryKey(for: authorized, fieldNames: ["authorization"], digest: Fixture.digest)
        #expect(Vary.matches(key, request: ["Authorization": "Bearer t2"], digest: Fixture.digest) == false)
        #expect(Vary.matches(key, request: [:], digest: Fixture.digest) == false)
        #expect(Vary.matches(key, request: authorized, digest: Fixture.digest) == true)
    }
}
