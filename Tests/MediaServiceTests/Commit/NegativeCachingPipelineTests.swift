import HTTPCaching
import MediaAudit
import MediaCore
import MediaService
import MediaTestSupport
import Testing

/// Negative caching through the pipeline (docs/policy-format.md, "Negative caching"): an origin error answered
/// from storage for the tier's `errorTTL`, stored and audited like any response, never for credentials' statuses
/// and never where the origin forbids storage.
@Suite struct NegativeCachingPipelineTests {
    static let policy = """
    { "tiers": {
        "public": { "storage": "disk", "maxTTL": 31536000, "downstreamCacheControl": "public, max-age=31536000, immutable",
                    "errorTTL": { "404": 60, "410": 600, "refused": 30 },
                    "variants": { "widths": [72, 144], "formats": ["jpeg"], "quality": 80 } },
        "quiet":  { "storage": "disk", "maxTTL": 31536000 } },
      "routes": [
        { "name": "catalog", "mount": "/catalog/", "origin": "http://origin.test/catalog/", "tier": "public" },
        { "name": "other",   "mount": "/other/",   "origin": "http://origin.test/other/",   "tier": "quiet" } ] }
    """
    static let missing = "http://origin.test/catalog/missing.jpg"

    static func harness() throws -> PipelineHarness { try PipelineHarness(policyJSON: policy) }

    static func problem(_ response: ServiceResponse) -> String { String(decoding: response.body, as: UTF8.self) }

    @Test func aMissingImageReachesTheOriginOncePerErrorTTL() async throws {
        let harness = try Self.harness()
        defer { Task { await harness.close() } }
        harness.origin.setReply(.init(status: 404, fields: HTTPFields([("Content-Type", "text/html")]), body: Array("<h1>no</h1>".utf8)),
                                for: Self.missing)
        let first = await harness.get("/catalog/missing.jpg")
        #expect(first.status == 404)
        #expect(first.fields[.contentType] == "application/problem+json")
        #expect(first.fields[.cacheControl] == "max-age=60")
        #expect(first.fields[.cacheStatus] == "mediactl; fwd=uri-miss; fwd-status=404; ttl=60; stored; detail=disk")
        let body = Self.problem(first)
        #expect(body.contains(#""status":404"#))
        #expect(body.contains("origin-status-404"))
        harness.clock.advance(20)
        let hit = await harness.get("/catalog/missing.jpg")
        #expect(hit.status == 404)
        #expect(hit.fields[.cacheStatus] == "mediactl; hit; ttl=40")
        #expect(hit.fields[.age] == "20")
        #expect(hit.fields[.cacheControl] == "max-age=60")
        #expect(Self.problem(hit) == body)
        // HEAD and a range request get the stored 404 too: no body, no 206.
        let head = await harness.get("/catalog/missing.jpg", method: "HEAD")
        #expect(head.status == 404)
        #expect(head.body.isEmpty)
        let ranged = await harness.get("/catalog/missing.jpg", [("Range", "bytes=0-9")])
        #expect(ranged.status == 404)
        #expect(ranged.fields[.contentRange] == nil)
        // A variant of the missing source is answered from the source's negative entry.
        let variant = await harness.get("/catalog/missing.jpg?w=144")
        #expect(variant.status == 404)
        #expect(harness.origin.requests.count == 1)
        // Past errorTTL the origin is asked again; now the image is there and replaces the negative entry.
        harness.clock.advance(41)
        harness.origin.setReply(.init(fields: HTTPFields([("Content-Type", "image/jpeg"), ("Cache-Control", "max-age=3600")]),
                                      body: try Fixtures.bytes("catalog/coins-1fea11f1.jpg")), for: Self.missing)
        let found = await harness.get("/catalog/missing.jpg")
        #expect(found.status == 200)
        // A negative entry is kept no longer than its lifetime (nothing stale to revalidate): a plain miss.
        #expect(found.fields[.cacheStatus] == "mediactl; fwd=uri-miss; fwd-status=200; ttl=3600; stored; detail=disk")
        #expect(await harness.get("/catalog/missing.jpg").fields[.cacheStatus] == "mediactl; hit; ttl=3600")
        #expect(harness.origin.requests.count == 2)
        let stores = try harness.auditRecords().filter { $0.event == .store }.map(\.entry)
        #expect(stores.map(\.status) == [404, nil])
        #expect(stores.map { $0.reason?.rawValue } == ["error-ttl", "tier-storage"])
        #expect(stores.map(\.ttl) == [60, 3600])
        #expect(stores.map { $0.storage?.rawValue } == ["disk", "disk"])
    }

    @Test func eachStatusHasItsOwnLifetimeAndOtherStatusesAreNotStored() async throws {
        let harness = try Self.harness()
        defer { Task { await harness.close() } }
        for (name, status) in [("gone", 410), ("forbidden", 403), ("unauthorized", 401), ("teapot", 418)] as [(String, HTTPStatus)] {
            harness.origin.setReply(.init(status: status, body: []), for: "http://origin.test/catalog/\(name).jpg")
        }
        #expect(await harness.get("/catalog/gone.jpg").fields[.cacheStatus]
            == "mediactl; fwd=uri-miss; fwd-status=410; ttl=600; stored; detail=disk")
        #expect(await harness.get("/catalog/gone.jpg").fields[.cacheStatus] == "mediactl; hit; ttl=600")
        for name in ["forbidden", "unauthorized", "teapot", "forbidden", "unauthorized", "teapot"] {
            let answer = await harness.get("/catalog/\(name).jpg")
            #expect([403, 401, 418].contains(answer.status.code))
            #expect(answer.fields[.cacheControl] == "no-store", "\(name)")
        }
        // The tier without errorTTL asks the origin every time.
        _ = await harness.get("/other/nothing.jpg")
        _ = await harness.get("/other/nothing.jpg")
        #expect(harness.origin.requests.map(\.url) == [
            "http://origin.test/catalog/gone.jpg",
            "http://origin.test/catalog/forbidden.jpg", "http://origin.test/catalog/unauthorized.jpg",
            "http://origin.test/catalog/teapot.jpg", "http://origin.test/catalog/forbidden.jpg",
            "http://origin.test/catalog/unauthorized.jpg", "http://origin.test/catalog/teapot.jpg",
            "http://origin.test/other/nothing.jpg", "http://origin.test/other/nothing.jpg",
        ])
        let records = try harness.auditRecords().map(\.entry)
        #expect(records.filter { $0.event == .store }.map(\.status) == [410])
        #expect(records.filter { $0.event == .skip }.map { $0.reason?.rawValue }
            == Array(repeating: "status-not-storable", count: 8))
    }

    @Test func theOriginsOwnWordOnStorageAndFreshnessHolds() async throws {
        let harness = try Self.harness()
        defer { Task { await harness.close() } }
        harness.origin.setReply(.init(status: 404, fields: HTTPFields([("Cache-Control", "no-store")])),
                                for: "http://origin.test/catalog/secret.jpg")
        harness.origin.setReply(.init(status: 404, fields: HTTPFields([("Cache-Control", "max-age=10"), ("Age", "4")])),
                                for: "http://origin.test/catalog/brief.jpg")
        harness.origin.setReply(.init(status: 404, fields: HTTPFields([("Expires", "Thu, 01 Jan 1970 00:00:00 GMT")])),
                                for: "http://origin.test/catalog/expired.jpg")
        let secret = await harness.get("/catalog/secret.jpg")
        #expect(secret.status == 404)
        #expect(secret.fields[.cacheStatus] == "mediactl; fwd=uri-miss; fwd-status=404; detail=response-no-store")
        #expect(await harness.get("/catalog/secret.jpg").fields[.cacheStatus]?.hasPrefix("mediactl; fwd=uri-miss") == true)
        let brief = await harness.get("/catalog/brief.jpg")
        #expect(brief.fields[.cacheStatus] == "mediactl; fwd=uri-miss; fwd-status=404; ttl=6; stored; detail=disk")
        #expect(brief.fields[.cacheControl] == "max-age=6")
        // Stale on arrival: not stored at all (no ttl-0 entry rewritten on every request).
        for _ in 0..<2 {
            #expect(await harness.get("/catalog/expired.jpg").fields[.cacheStatus]
                == "mediactl; fwd=uri-miss; fwd-status=404; detail=stale-on-arrival")
        }
        #expect(harness.origin.requests.count == 5)
        #expect(try harness.auditRecords().filter { $0.event == .store }.count == 1)
    }

    @Test func aRefusedNonImageIsRememberedForItsOwnLifetime() async throws {
        let harness = try Self.harness()
        defer { Task { await harness.close() } }
        harness.origin.setReply(.init(fields: HTTPFields([("Content-Type", "text/html")]), body: Array("<html></html>".utf8)),
                                for: "http://origin.test/catalog/page.jpg")
        let first = await harness.get("/catalog/page.jpg")
        #expect(first.status == 502)
        #expect(first.fields[.cacheStatus] == "mediactl; fwd=uri-miss; fwd-status=200; ttl=30; stored; detail=disk")
        #expect(Self.problem(first).contains("not-an-image"))
        let again = await harness.get("/catalog/page.jpg")
        #expect(again.status == 502)
        #expect(again.fields[.cacheStatus] == "mediactl; hit; ttl=30")
        #expect(Self.problem(again) == Self.problem(first))
        #expect(harness.origin.requests.count == 1)
        let store = try #require(try harness.auditRecords().first { $0.event == .store }?.entry)
        #expect(store.status == 502)
        #expect(store.ttl == 30)
    }
}
