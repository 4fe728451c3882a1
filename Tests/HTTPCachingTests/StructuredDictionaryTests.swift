import MediaCore
import Testing
@testable import HTTPCaching

/// RFC 8941 §4.2.2 Dictionary parsing, with keys read case-insensitively (the RFC 9213 leniency).
@Suite struct StructuredDictionaryTests {
    typealias V = StructuredDictionary.Value

    func members(_ text: String) -> [String]? {
        StructuredDictionary(text)?.members.map { "\($0.key)=\($0.value)" }
    }

    @Test func itemsOfEveryType() throws {
        let dictionary = try #require(StructuredDictionary(
            #"a=1, b=-2, c=3.25, d="x \"y\" \\", e=tok/en:1, f=:aGk=:, g=?0, h, i=(1 "two" three);p=1"#))
        #expect(dictionary["a"] == .integer(1))
        #expect(dictionary["b"] == .integer(-2))
        #expect(dictionary["c"] == .decimal(3.25))
        #expect(dictionary["d"] == .string(#"x "y" \"#))
        #expect(dictionary["e"] == .token("tok/en:1"))
        #expect(dictionary["f"] == .byteSequence("aGk="))
        #expect(dictionary["g"] == .boolean(false))
        #expect(dictionary["h"] == .boolean(true))
        #expect(dictionary["i"] == .innerList([.integer(1), .string("two"), .token("three")]))
    }

    @Test func keysAreReadCaseInsensitivelyAndLastDuplicateWins() {
        #expect(members("MaX-aGe=60") == ["max-age=integer(60)"])
        #expect(members("a=1, b, a=2") == ["a=integer(2)", "b=boolean(true)"])
        #expect(members("a;q=1;r") == ["a=boolean(true)"])
    }

    @Test func invalidDictionaries() {
        for text in ["max-age =100", "max-age= 100", "a=1,", "a=1,,b", ",a", "1a=1", "a=\"unterminated", "a=1 b", "a=&",
                     "a=1234567890123456", "a=1.2345", "a=1234567890123.5", "a=1.", "a=?2", "a=(1 2", "a=(1,2)", "a=:ab!:",
                     "a=\"\\x\"", "a=\"tab\there\"", "a;=1", "a=-", "&&&&&", "max-age=10000, &&&&&"] {
            #expect(StructuredDictionary(text) == nil, "\(text)")
        }
    }

    @Test func whitespaceRules() {
        #expect(members("  a=1 ,\tb=2") == ["a=integer(1)", "b=integer(2)"])
        #expect(members("") == [])
        #expect(members("a=( 1  2 )") == ["a=innerList([HTTPCaching.StructuredDictionary.Value.integer(1), HTTPCaching.StructuredDictionary.Value.integer(2)])"])
    }
}

/// RFC 9213 targeted cache control: which field applies and what it means.
@Suite struct TargetedCacheControlTests {
    let targets = ["CDN-Cache-Control"]

    func select(_ pairs: [(String, String)], targets: [String]? = nil) -> CacheControl? {
        TargetedCacheControl.select(HTTPFields(pairs), targets: targets ?? self.targets)
    }

    @Test func directivesAndTypes() throws {
        let cc = try #require(select([("CDN-Cache-Control", "max-age=60, s-maxage=30, stale-while-revalidate=5, stale-if-error=7, must-revalidate, public, immutable, no-transform, proxy-revalidate")]))
        #expect(cc.maxAge == 60)
        #expect(cc.sharedMaxAge == 30)
        #expect(cc.staleWhileRevalidate == 5)
        #expect(cc.staleIfError == 7)
        #expect(cc.mustRevalidate && cc.isPublic && cc.immutable && cc.noTransform && cc.proxyRevalidate)
        #expect(select([("CDN-Cache-Control", "max-age=99999999999")])?.maxAge == 2_147_483_648)
        #expect(select([("CDN-Cache-Control", "no-store=?0, private")]) == { var c = CacheControl(); c.isPrivate = true; return c }())
        #expect(select([("CDN-Cache-Control", #"no-cache="Set-Cookie, X-A""#)])?.noCacheFieldNames == ["set-cookie", "x-a"])
        #expect(select([("CDN-Cache-Control", #"private=("Set-Cookie" x-b)"#)])?.privateFieldNames == ["set-cookie", "x-b"])
        #expect(select([("CDN-Cache-Control", "foo")]) == CacheControl())
    }

    @Test func wrongTypesInvalidateTheField() {
        for value in [#"max-age="60""#, "max-age=-1", "max-age=1.5", "no-store=5", "private=(1)", "public=\"yes\""] {
            #expect(select([("CDN-Cache-Control", value)]) == nil, "\(value)")
        }
    }

    @Test func theFirstValidNonEmptyTargetWinsAndLinesCombine() {
        let pairs = [("Mediactl-Cache-Control", ""), ("CDN-Cache-Control", "max-age=5"), ("cdn-cache-control", "no-store")]
        let cc = select(pairs, targets: ["Mediactl-Cache-Control", "CDN-Cache-Control"])
        #expect(cc?.maxAge == 5)
        #expect(cc?.noStore == true)
        #expect(select([("Mediactl-Cache-Control", "max-age=\"x\""), ("CDN-Cache-Control", "max-age=9")],
                       targets: ["Mediactl-Cache-Control", "CDN-Cache-Control"])?.maxAge == 9)
        #expect(select([("CDN-Cache-Control", "max-age=9")], targets: []) == nil)
        #expect(select([("Cache-Control", "max-age=9")]) == nil)
    }

    @Test func storageAndFreshnessUseTheTargetedField() {
        let t0 = Fixture.t0
        func stored(_ pairs: [(String, String)]) -> StoredResponse {
            Fixture.stored(pairs).with(targets: targets)
        }
        #expect(Storability.evaluate(method: "GET", requestFields: [:], status: 200,
                                     responseFields: HTTPFields([("Cache-Control", "max-age=600"), ("CDN-Cache-Control", "no-store")]),
                                     role: .shared, targets: targets).reason?.code == "response-no-store")
        #expect(Storability.evaluate(method: "GET", requestFields: [:], status: 503,
                                     responseFields: HTTPFields([("Expires", "Thu, 01 Jan 2099 00:00:00 GMT"), ("CDN-Cache-Control", "public")]),
                                     role: .shared, targets: targets).reason?.code == "error-without-explicit-freshness")
        #expect(stored([("Cache-Control", "max-age=600"), ("CDN-Cache-Control", "max-age=10")]).freshnessLifetime(role: .shared) == 10)
        #expect(stored([("Expires", HTTPDate.format(t0 + 600)), ("CDN-Cache-Control", "must-revalidate")]).freshnessLifetime(role: .shared) == 0)
        #expect(stored([("Cache-Control", "max-age=600")]).freshnessLifetime(role: .shared) == 600)
        var updated = stored([("Cache-Control", "max-age=600")])
        updated.fields.append("CDN-Cache-Control", "max-age=20")
        #expect(updated.freshnessLifetime(role: .shared) == 20)
    }
}

extension StoredResponse {
    func with(targets: [String]) -> StoredResponse {
        var copy = self
        copy.targets = targets
        return copy
    }
}
