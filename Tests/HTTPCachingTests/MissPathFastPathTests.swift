import MediaCore
import Testing
@testable import HTTPCaching

/// The miss path's cheaper helpers give exactly the answers of the general code they short-cut.
@Suite struct MissPathFastPathTests {
    @Test func namesEqualIgnoresASCIICaseOnly() {
        #expect(HTTPFields.namesEqual("Content-Type", "content-type"))
        #expect(HTTPFields.namesEqual("X-A-LONGER-FIELD-NAME-THAN-FIFTEEN", "x-a-longer-field-name-than-fifteen"))
        #expect(!HTTPFields.namesEqual("content-typf", "content-type"))
        #expect(!HTTPFields.namesEqual("ETag", "ETa"))
        #expect(HTTPFields.namesEqual("", ""))
        #expect(!HTTPFields.namesEqual("[", "{"))  // 0x5B / 0x7B differ by 0x20 but are not letters
        #expect(!HTTPFields.namesEqual("é", "É"))  // no Unicode case folding
    }

    @Test func trimKeepsUntrimmedValuesAndTrimsTheRest() {
        #expect(HTTPFields.trim("v") == "v")
        #expect(HTTPFields.trim("") == "")
        #expect(HTTPFields.trim(" v") == "v")
        #expect(HTTPFields.trim("v\t") == "v")
        #expect(HTTPFields.trim(" \t ") == "")
        #expect(HTTPFields.trim("a b") == "a b")
    }

    @Test func filterDropsHopByHopProxyAndListedNamesInAnyCase() {
        let fields = HTTPFields([
            ("Content-Type", "image/jpeg"), ("CONNECTION", "X-Trace, close"), ("Keep-Alive", "timeout=5"),
            ("TE", "trailers"), ("Upgrade", "h2c"), ("Transfer-Encoding", "chunked"), ("Proxy-Connection", "x"),
            ("PROXY-Authenticate", "Basic"), ("x-trace", "1"), ("Cache-Control", "no-cache=\"Set-Cookie\""),
            ("Set-Cookie", "a=b"), ("ETag", "\"e\""), ("proxyish", "kept"), ("Trailer", "t"), ("Tex", "3"),
            ("Upgrades", "u"), ("Content-Length", "1"),
        ])
        let kept = StoredFields.filter(fields, role: .shared)
        #expect(kept == HTTPFields([("Content-Type", "image/jpeg"), ("Cache-Control", "no-cache=\"Set-Cookie\""),
                                    ("ETag", "\"e\""), ("proxyish", "kept"), ("Trailer", "t"), ("Tex", "3"),
                                    ("Upgrades", "u"), ("Content-Length", "1")]))
        let (same, removedAny) = StoredFields.filtered(HTTPFields([("ETag", "\"e\""), ("Age", "3")]),
                                                      cacheControl: CacheControl(), role: .shared)
        #expect(same == HTTPFields([("ETag", "\"e\""), ("Age", "3")]))
        #expect(removedAny == false)
    }

    @Test func filterKeepsUnicodeLowerCasingRuleForNonASCIINames() {
        // U+212A KELVIN SIGN lower-cases to ASCII `k`: the original rule (lower-case, then compare) drops it.
        let fields = HTTPFields([("\u{212A}eep-Alive", "x"), ("Proxy-é", "y"), ("Ü", "z")])
        #expect(StoredFields.filter(fields, role: .shared) == HTTPFields([("Ü", "z")]))
    }

    @Test func storingReusesTheParsedCacheControlOnlyWhenNothingWasRemoved() {
        let request = HTTPFields([("Accept", "image/*")])
        let plain = HTTPFields([("Cache-Control", "public, max-age=60"), ("ETag", "\"e\"")])
        guard case .store(let stored) = StoredResponse.storing(
            method: "GET", requestFields: request, status: 200, responseFields: plain, role: .shared,
            requestTime: 100, responseTime: 100, digest: { $0 }) else { Issue.record("not stored"); return }
        #expect(stored == StoredResponse(status: 200, fields: plain, requestTime: 100, responseTime: 100))
        #expect(stored.parsed.cacheControl.maxAge == 60)
        // `Connection: cache-control` removes the field itself: the stored response's parsed view follows.
        let hop = HTTPFields([("Cache-Control", "public, max-age=60"), ("Connection", "cache-control")])
        guard case .store(let filtered) = StoredResponse.storing(
            method: "GET", requestFields: request, status: 200, responseFields: hop, role: .shared,
            requestTime: 100, responseTime: 100, digest: { $0 }) else { Issue.record("not stored"); return }
        #expect(filtered.fields.isEmpty)
        #expect(filtered.parsed == StoredResponse(status: 200, fields: HTTPFields(), requestTime: 100, responseTime: 100).parsed)
        #expect(filtered.parsed.cacheControl.maxAge == nil)
    }

    @Test func varyFieldNamesWithoutVaryIsEmpty() {
        #expect(Vary.fieldNames(of: HTTPFields([("ETag", "\"e\"")])) == [])
        #expect(Vary.fieldNames(of: HTTPFields([("VARY", "Accept, accept-encoding, Accept")])) == ["accept", "accept-encoding"])
        #expect(Vary.fieldNames(of: HTTPFields([("Vary", "Accept"), ("vary", "*")])) == nil)
    }

    @Test func reserveCapacityChangesNoLine() {
        var fields = HTTPFields([("A", "1")])
        fields.reserveCapacity(16)
        fields.append("B", " 2 ")
        #expect(fields == HTTPFields([("A", "1"), ("B", "2")]))
        #expect(fields.count == 2)
    }
}
