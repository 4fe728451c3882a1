import MediaCore
import Testing
@testable import HTTPCaching

/// A HEAD's new validator describes another representation (RFC 9111 §4.3.5), and the qualified forms of
/// `no-cache` and `private` exclude every field they name (§5.2.2.4, §5.2.2.7).
@Suite struct HeadUpdateAndQualifiedFieldNameTests {
    let t0 = Fixture.t0

    func freshen(_ stored: [(String, String)], _ head: [(String, String)]) -> Bool {
        if case .updated = NotModified.freshenWithHEAD(Fixture.stored(stored), headStatus: 200, headFields: HTTPFields(head),
                                                       requestTime: t0 + 1, responseTime: t0 + 1, role: .shared) {
            return true
        }
        return false
    }

    /// RFC 9111 §4.3.5: a validator the HEAD carries must equal the stored one; one the stored response lacks differs.
    @Test func aHEADWithANewValidatorDescribesAnotherRepresentation() {
        #expect(freshen([("ETag", "\"a\"")], [("ETag", "\"a\""), ("Cache-Control", "max-age=9")]))
        #expect(freshen([("ETag", "\"a\"")], [("Cache-Control", "max-age=9")]))
        #expect(!freshen([], [("ETag", "\"v2\"")]))
        #expect(!freshen([("ETag", "\"a\"")], [("ETag", "\"b\"")]))
        #expect(!freshen([], [("Last-Modified", HTTPDate.format(t0))]))
        #expect(!freshen([("Content-Length", "8")], [("Content-Length", "9")]))
        #expect(freshen([], [("Content-Length", "9")]))
    }

    /// A qualified `private="Set-Cookie"` in `Cache-Control` keeps the cookie out of a shared cache even when a
    /// targeted field governs freshness, and the targeted field's own qualified names count too.
    @Test func qualifiedNamesOfBothFieldsAreExcluded() throws {
        func stored(_ pairs: [(String, String)]) throws -> StoredResponse {
            guard case .store(let response) = StoredResponse.storing(
                method: "GET", requestFields: [:], status: 200, responseFields: HTTPFields(pairs), role: .shared,
                requestTime: t0, responseTime: t0, digest: Fixture.digest, targets: ["CDN-Cache-Control"])
            else { throw Skip() }
            return response
        }
        let a = try stored([("Cache-Control", "private=\"Set-Cookie\""), ("CDN-Cache-Control", "max-age=600"),
                            ("Set-Cookie", "sid=alice")])
        #expect(a.fields["set-cookie"] == nil)
        #expect(a.freshnessLifetime(role: .shared) == 600)
        let b = try stored([("CDN-Cache-Control", "max-age=600, no-cache=\"X-User\""), ("X-User", "alice")])
        #expect(b.fields["x-user"] == nil)
        var updated = NotModified.update(b, with: HTTPFields([("X-User", "bob"), ("CDN-Cache-Control", "max-age=60, private=\"X-User\"")]),
                                         requestTime: t0 + 1, responseTime: t0 + 1, role: .shared)
        #expect(updated.fields["x-user"] == nil)
        updated.fields.append("Empty", "")
        #expect(TargetedCacheControl.select(HTTPFields([("CDN-Cache-Control", ""), ("CDN-Cache-Control", "max-age=5")]),
                                            targets: ["CDN-Cache-Control"])?.maxAge == 5)
    }

    struct Skip: Error {}
}
