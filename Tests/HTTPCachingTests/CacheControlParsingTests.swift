import MediaCore
import Testing
@testable import HTTPCaching

@Suite struct CacheControlParsingTests {
    @Test func parsesEveryResponseDirective() {
        let cc = CacheControl("public, max-age=60, s-maxage=120, no-cache, no-store, no-transform, must-revalidate, "
            + "proxy-revalidate, must-understand, private, immutable, stale-while-revalidate=30, stale-if-error=400")
        #expect(cc.isPublic == true)
        #expect(cc.maxAge == 60)
        #expect(cc.sharedMaxAge == 120)
        #expect(cc.noCache == true)
        #expect(cc.noStore == true)
        #expect(cc.noTransform == true)
        #expect(cc.mustRevalidate == true)
        #expect(cc.proxyRevalidate == true)
        #expect(cc.mustUnderstand == true)
        #expect(cc.isPrivate == true)
        #expect(cc.immutable == true)
        #expect(cc.staleWhileRevalidate == 30)
        #expect(cc.staleIfError == 400)
    }

    @Test func parsesEveryRequestDirective() {
        let cc = CacheControl("max-age=5, max-stale=10, min-fresh=20, no-cache, no-store, no-transform, only-if-cached, stale-if-error=7")
        #expect(cc.maxAge == 5)
        #expect(cc.maxStale == 10)
        #expect(cc.minFresh == 20)
        #expect(cc.noCache == true)
        #expect(cc.noStore == true)
        #expect(cc.noTransform == true)
        #expect(cc.onlyIfCached == true)
        #expect(cc.staleIfError == 7)
    }

    @Test func emptyValueHasNoDirectives() {
        #expect(CacheControl("") == CacheControl())
        #expect(CacheControl(" , ,, ") == CacheControl())
    }

    @Test func maxStaleWithoutValueAcceptsAnyStaleness() {
        #expect(CacheControl("max-stale").maxStale == CacheControl.anyStaleness)
        #expect(CacheControl("max-stale").maxStale == Int64.max)
    }

    @Test func namesAreCaseInsensitive() {
        let cc = CacheControl("MAX-AGE=60, Public, No-Store, S-MaxAge=9")
        #expect(cc.maxAge == 60)
        #expect(cc.isPublic == true)
        #expect(cc.noStore == true)
        #expect(cc.sharedMaxAge == 9)
    }

    @Test func quotedDeltaSecondsAccepted() {
        #expect(CacheControl("max-age=\"60\"").maxAge == 60)
        #expect(CacheControl("s-maxage=\"7\"").sharedMaxAge == 7)
    }

    @Test func invalidMaxAgeIsZero() {
        #expect(CacheControl("max-age=-1").maxAge == 0)
        #expect(CacheControl("max-age=abc").maxAge == 0)
        #expect(CacheControl("max-age=").maxAge == 0)
        #expect(CacheControl("max-age").maxAge == 0)
        #expect(CacheControl("max-age=1.5").maxAge == 0)
        #expect(CacheControl("max-age=60 s").maxAge == 0)
        #expect(CacheControl("max-age=\"6\\0\"").maxAge == 0)
        #expect(CacheControl("max-age=\"60").maxAge == 0)
        #expect(CacheControl("s-maxage=-5").sharedMaxAge == 0)
    }

    @Test func whitespaceAroundEqualsAccepted() {
        #expect(CacheControl("max-age = 60").maxAge == 60)
        #expect(CacheControl("\tmax-age=60\t,public").maxAge == 60)
    }

    @Test func hugeDeltaSecondsClampTo2147483648() {
        #expect(CacheControl("max-age=99999999999").maxAge == 2_147_483_648)
        #expect(CacheControl("max-age=2147483648").maxAge == 2_147_483_648)
        #expect(CacheControl("max-age=2147483647").maxAge == 2_147_483_647)
        #expect(CacheControl("max-age=99999999999999999999999999999999").maxAge == 2_147_483_648)
        #expect(CacheControl("stale-if-error=99999999999").staleIfError == 2_147_483_648)
    }

    @Test func conflictingDuplicateMaxAgeIsStale() {
        #expect(CacheControl("max-age=0, max-age=300").maxAge == 0)
        #expect(CacheControl("max-age=300, max-age=0").maxAge == 0)
        #expect(CacheControl("max-age=300, max-age=60").maxAge == 0)
        #expect(CacheControl("max-age=300, max-age=300").maxAge == 300)
        #expect(CacheControl("s-maxage=10, s-maxage=20").sharedMaxAge == 0)
    }

    @Test func duplicateOtherDirectivesKeepFirst() {
        #expect(CacheControl("max-stale=5, max-stale=50").maxStale == 5)
        #expect(CacheControl("min-fresh=5, min-fresh=50").minFresh == 5)
        #expect(CacheControl("stale-while-revalidate=5, stale-while-revalidate=50").staleWhileRevalidate == 5)
    }

    @Test func invalidOptionalArgumentsAreIgnored() {
        #expect(CacheControl("max-stale=abc").maxStale == nil)
        #expect(CacheControl("min-fresh=-1").minFresh == nil)
        #expect(CacheControl("stale-while-revalidate=x").staleWhileRevalidate == nil)
        #expect(CacheControl("stale-if-error").staleIfError == nil)
    }

    @Test func quotedCommaDoesNotSplit() {
        let cc = CacheControl("x=\"a,b\", max-age=60")
        #expect(cc.maxAge == 60)
        #expect(CacheControl("x=\"a,max-age=0\", max-age=60").maxAge == 60)
    }

    @Test func unknownDirectivesIgnored() {
        let cc = CacheControl("foo, bar=baz, max-age=60, community=\"UCI\"")
        var expected = CacheControl()
        expected.maxAge = 60
        #expect(cc == expected)
    }

    @Test func qualifiedPrivateAndNoCacheListFieldNames() {
        let cc = CacheControl("private=\"Set-Cookie, X-Token\", no-cache=\"Set-Cookie\"")
        #expect(cc.isPrivate == false)
        #expect(cc.privateFieldNames == ["set-cookie", "x-token"])
        #expect(cc.noCache == false)
        #expect(cc.noCacheFieldNames == ["set-cookie"])
        #expect(CacheControl("no-cache=Set-Cookie").noCacheFieldNames == ["set-cookie"])
    }

    @Test func emptyQualifiedListMeansUnqualified() {
        #expect(CacheControl("private=\"\"").isPrivate == true)
        #expect(CacheControl("no-cache=\"\"").noCache == true)
    }

    @Test func malformedQualifiedListFallsBackToUnqualified() {
        #expect(CacheControl("private=\"Set-Cookie").isPrivate == true)
        #expect(CacheControl("no-cache=\"Set-Cookie").noCache == true)
        #expect(CacheControl("private=\"a\" junk").isPrivate == true)
    }

    /// Found by Fuzz/FuzzCacheControl: a qualified list with a non-token element (`a"b`) was kept, and
    /// ``CacheControl/description`` then wrote an unparsable `private="a"b"`. Field names are tokens
    /// (RFC 9110 §5.1), so such a list is malformed and the unqualified directive applies.
    @Test func qualifiedListWithNonTokenNameFallsBackToUnqualified() {
        let cc = CacheControl("private=\"a\\\"b\", no-cache=\"\\\"x,y\\\"\"")
        #expect(cc.isPrivate == true)
        #expect(cc.privateFieldNames == [])
        #expect(cc.noCache == true)
        #expect(cc.noCacheFieldNames == [])
        #expect(cc.description == "private, no-cache")
        #expect(CacheControl("private=\"x-token, a b\"").isPrivate == true)
        #expect(CacheControl("no-cache=a\"b").noCache == true)
        #expect(CacheControl("private=\"X-Token, Set-Cookie\"").description == "private=\"x-token, set-cookie\"")
    }

    @Test func publicAndPrivateBothRecorded() {
        let cc = CacheControl("public, private")
        #expect(cc.isPublic == true)
        #expect(cc.isPrivate == true)
    }

    @Test func severalFieldLinesCombine() {
        let fields = HTTPFields([("Cache-Control", "max-age=300"), ("Content-Type", "image/png"), ("cache-control", "no-store")])
        let cc = CacheControl(fields: fields)
        #expect(cc.maxAge == 300)
        #expect(cc.noStore == true)
    }

    @Test func duplicatesAcrossLinesFollowSameRule() {
        let fields = HTTPFields([("Cache-Control", "max-age=0"), ("Cache-Control", "max-age=300")])
        #expect(CacheControl(fields: fields).maxAge == 0)
    }

    @Test func presenceDetection() {
        #expect(CacheControl.isPresent(in: ["Cache-Control": ""]) == true)
        #expect(CacheControl.isPresent(in: ["Pragma": "no-cache"]) == false)
    }
}

@Suite struct CacheControlDescriptionTests {
    @Test func canonicalForm() {
        #expect(CacheControl("immutable, max-age=31536000, PUBLIC").description == "public, max-age=31536000, immutable")
        #expect(CacheControl("max-stale, private=\"Set-Cookie\", no-cache=x, stale-if-error=5").description
            == "private=\"set-cookie\", no-cache=\"x\", max-stale, stale-if-error=5")
        #expect(CacheControl("foo").description == "")
    }

    @Test func roundTrip() {
        let text = "public, no-cache, no-store, no-transform, must-revalidate, proxy-revalidate, must-understand, max-age=1, "
            + "s-maxage=2, max-stale=3, min-fresh=4, only-if-cached, immutable, stale-while-revalidate=5, stale-if-error=6"
        #expect(CacheControl(text).description == text)
        #expect(CacheControl(CacheControl(text).description) == CacheControl(text))
    }
}
