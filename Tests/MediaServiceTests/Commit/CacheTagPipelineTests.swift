import HTTPCaching
import MediaAudit
import MediaCore
import MediaService
import MediaTestSupport
import Testing

/// Cache tags and soft purge through the pipeline (docs/policy-format.md "Cache tags", docs/operations.md "Cache tags
/// and soft purge"): tags kept as keyed digests, inherited by variants, never sent downstream; a purge by tag removes
/// exactly the objects that carry the tag; a soft purge leaves them stored and stale.
@Suite struct CacheTagPipelineTests {
    static let policy = """
    { "tiers": {
        "public":  { "storage": "disk", "maxTTL": 31536000, "tagHeader": "Surrogate-Key",
                     "variants": { "widths": [72, 144], "formats": ["jpeg"], "quality": 80 } },
        "generic": { "storage": "memory", "contentTypes": ["*/*"], "tagHeader": "Cache-Tag" },
        "private": { "storage": "encrypted-disk", "cache": "private", "credentials": "bearer-required",
                     "partition": "credential", "maxTTL": 600, "tagHeader": "Surrogate-Key",
                     "variants": { "widths": [72, 144], "formats": ["jpeg"], "quality": 80 } } },
      "routes": [
        { "name": "catalog", "mount": "/catalog/", "origin": "http://origin.test/catalog/", "tier": "public" },
        { "name": "docs",    "mount": "/docs/",    "origin": "http://origin.test/docs/",    "tier": "generic" },
        { "name": "receipts", "mount": "/receipts/", "origin": "http://origin.test/receipts/", "tier": "private" } ] }
    """

    static func harness(_ tags: [String: String]) throws -> PipelineHarness {
        let harness = try PipelineHarness(policyJSON: policy)
        let coins = try Fixtures.bytes("catalog/coins-1fea11f1.jpg")
        for (path, tag) in tags {
            let isDoc = path.hasPrefix("docs/")
            var fields = HTTPFields([("Content-Type", isDoc ? "text/plain" : "image/jpeg"), ("ETag", "\"\(path.hashValue & 0xffff)\""),
                                     ("Cache-Control", "max-age=3600")])
            fields.append(HTTPFieldName(isDoc ? "Cache-Tag" : "Surrogate-Key"), tag)
            harness.origin.setReply(.init(fields: fields, body: isDoc ? Array("text".utf8) : coins),
                                    for: "http://origin.test/\(path)")
        }
        return harness
    }

    @Test func tagsNeverReachClientsFilesOrTheLog() async throws {
        let harness = try Self.harness(["catalog/a.jpg": "product-42 summer-sale", "docs/a.txt": "product-42",
                                        "receipts/r.jpg": "user-7-receipts"])
        defer { Task { await harness.close() } }
        let image = await harness.get("/catalog/a.jpg")
        #expect(image.status == 200)
        #expect(image.fields[HTTPFieldName("Surrogate-Key")] == nil)
        #expect(await harness.get("/catalog/a.jpg?w=144").fields[HTTPFieldName("Surrogate-Key")] == nil)
        let doc = await harness.get("/docs/a.txt")
        #expect(doc.status == 200)
        #expect(doc.fields[HTTPFieldName("Cache-Tag")] == nil)
        #expect(await harness.get("/docs/a.txt").fields[HTTPFieldName("Cache-Tag")] == nil)
        let receipt = await harness.get("/receipts/r.jpg", [("Authorization", "Bearer t1")])
        #expect(receipt.status == 200)
        #expect(receipt.fields[HTTPFieldName("Surrogate-Key")] == nil)
        harness.service.flushWrites()
        for file in harness.filesUnderState() {
            for tag in ["product-42", "summer-sale", "user-7-receipts", "Surrogate-Key"] {
                #expect(!String(decoding: file.bytes, as: UTF8.self).contains(tag), "\(file.path) holds \(tag)")
            }
        }
    }

    @Test func aPurgeByTagRemovesExactlyItsObjectsVariantsIncluded() async throws {
        let harness = try Self.harness(["catalog/a.jpg": "product-4", "catalog/b.jpg": "product-42",
                                        "catalog/c.jpg": "sale product-42", "catalog/d.jpg": "product-420 product"])
        defer { Task { await harness.close() } }
        for path in ["/catalog/a.jpg", "/catalog/b.jpg", "/catalog/b.jpg?w=144", "/catalog/c.jpg", "/catalog/d.jpg"] {
            #expect(await harness.get(path).status == 200)
        }
        #expect(try harness.service.purge(.tag("product-42", soft: false)) == 3)
        for path in ["/catalog/a.jpg", "/catalog/d.jpg"] {
            #expect(await harness.get(path).fields[.cacheStatus]?.hasPrefix("mediactl; hit") == true, "\(path)")
        }
        for path in ["/catalog/b.jpg", "/catalog/c.jpg"] {
            #expect(await harness.get(path).fields[.cacheStatus]?.hasPrefix("mediactl; fwd=uri-miss") == true, "\(path)")
        }
        #expect(try harness.service.purge(.tag("nothing", soft: false)) == 0)
        let records = try harness.auditRecords().map(\.entry)
        let summaries = records.filter { $0.event == .purge && $0.key == nil }
        #expect(summaries.map { $0.reason?.rawValue } == ["purge-tag", "purge-tag"])
        #expect(summaries.map(\.count) == [3, 0])
        #expect(summaries.map { $0.tag?.hex } == [harness.service.cacheTagDigest("product-42"), harness.service.cacheTagDigest("nothing")])
        #expect(records.filter { $0.event == .purge && $0.key != nil }.count == 3)
        #expect(throws: ServiceError.self) { try harness.service.purge(.tag("two words", soft: false)) }
    }

    @Test func aSoftPurgeKeepsObjectsStoredAndMakesThemRevalidate() async throws {
        let harness = try Self.harness(["catalog/a.jpg": "product-42", "catalog/b.jpg": "other"])
        defer { Task { await harness.close() } }
        #expect(await harness.get("/catalog/a.jpg").status == 200)
        #expect(await harness.get("/catalog/a.jpg?w=144").status == 200)
        #expect(await harness.get("/catalog/b.jpg").status == 200)
        harness.clock.advance(10)
        #expect(try harness.service.purge(.tag("product-42", soft: true)) == 2)
        // Still stored: the untouched object is fresh; the marked one is validated with its ETag and a 304 renews it.
        #expect(await harness.get("/catalog/b.jpg").fields[.cacheStatus] == "mediactl; hit; ttl=3590")
        harness.origin.setReply(.init(status: 304, fields: HTTPFields([("Cache-Control", "max-age=3600")])),
                                for: "http://origin.test/catalog/a.jpg")
        let revalidated = await harness.get("/catalog/a.jpg")
        #expect(revalidated.status == 200)
        #expect(revalidated.fields[.cacheStatus] == "mediactl; fwd=stale; fwd-status=304; ttl=3600")
        let validation = try #require(harness.origin.requests.last)
        #expect(validation.fields[.ifNoneMatch] != nil)
        #expect(await harness.get("/catalog/a.jpg").fields[.cacheStatus] == "mediactl; hit; ttl=3600")
        let records = try harness.auditRecords().map(\.entry)
        let marked = records.filter { $0.reason?.rawValue == "soft-purge" }
        #expect(marked.count == 2)
        #expect(marked.allSatisfy { $0.event == .update && $0.ttl == 0 })
        let summary = try #require(records.last { $0.event == .purge })
        #expect(summary.reason?.rawValue == "purge-tag-soft")
        #expect(summary.count == 2)
        #expect(summary.tag?.hex == harness.service.cacheTagDigest("product-42"))
    }

    /// A derived image made from a source served stale says so, and is never fresher than its source: after a soft
    /// purge with the origin failing, the variant's `Cache-Status` carries the source's `fwd`, `fwd-status`, `ttl` and
    /// `detail`, whether it is derived again or its stored bytes are stored again.
    @Test func aVariantOfAStaleSourceIsStaleToo() async throws {
        let harness = try PipelineHarness(policyJSON: Self.policy)
        defer { Task { await harness.close() } }
        let coins = try Fixtures.bytes("catalog/coins-1fea11f1.jpg")
        let fields = HTTPFields([("Content-Type", "image/jpeg"), ("ETag", "\"c1\""),
                                 ("Cache-Control", "max-age=3600, stale-if-error=86400"), ("Surrogate-Key", "product-42")])
        for path in ["a.jpg", "b.jpg"] {
            harness.origin.setReply(.init(fields: fields, body: coins), for: "http://origin.test/catalog/\(path)")
        }
        #expect(await harness.get("/catalog/a.jpg?w=144").status == 200)
        #expect(await harness.get("/catalog/b.jpg").status == 200)
        harness.clock.advance(10)
        #expect(try harness.service.purge(.tag("product-42", soft: true)) == 3)
        harness.clock.advance(5)
        for path in ["a.jpg", "b.jpg"] {
            harness.origin.setReply(.init(status: 503, fields: HTTPFields([("Content-Type", "text/plain")]), body: []),
                                    for: "http://origin.test/catalog/\(path)")
        }
        // The stored variant's bytes, stored again from the stale source.
        let again = await harness.get("/catalog/a.jpg?w=144")
        #expect(again.status == 200)
        #expect(again.fields[.cacheStatus] == "mediactl; fwd=stale; fwd-status=503; ttl=-5; stored; detail=stale-if-error")
        #expect(await harness.get("/catalog/a.jpg").fields[.cacheStatus]
            == "mediactl; fwd=stale; fwd-status=503; ttl=-5; detail=stale-if-error")
        // A variant never made before, derived from the stale source.
        let derived = await harness.get("/catalog/b.jpg?w=72")
        #expect(derived.status == 200)
        #expect(derived.fields[.cacheStatus] == "mediactl; fwd=stale; fwd-status=503; ttl=-5; stored; detail=stale-if-error")
        // Stored no fresher than its source: the next request finds it stale too.
        #expect(await harness.get("/catalog/b.jpg?w=72").fields[.cacheStatus]?.contains("hit; ttl=") == false)
    }

    /// The same on a partitioned tier: each credential's variant of a stale source says so.
    @Test func aPartitionedVariantOfAStaleSourceIsStaleToo() async throws {
        let harness = try PipelineHarness(policyJSON: Self.policy)
        defer { Task { await harness.close() } }
        let coins = try Fixtures.bytes("catalog/coins-1fea11f1.jpg")
        harness.origin.setReply(.init(fields: HTTPFields([("Content-Type", "image/jpeg"), ("ETag", "\"r1\""),
                                                          ("Cache-Control", "private, max-age=300, stale-if-error=600"),
                                                          ("Surrogate-Key", "user-7")]), body: coins),
                                for: "http://origin.test/receipts/r.jpg")
        for token in ["t1", "t2"] {
            #expect(await harness.get("/receipts/r.jpg?w=144", [("Authorization", "Bearer \(token)")]).status == 200)
        }
        harness.clock.advance(10)
        #expect(try harness.service.purge(.tag("user-7", soft: true)) == 4)
        harness.clock.advance(5)
        harness.origin.setReply(.init(status: 503, fields: HTTPFields([("Content-Type", "text/plain")]), body: []),
                                for: "http://origin.test/receipts/r.jpg")
        for token in ["t1", "t2"] {
            let variant = await harness.get("/receipts/r.jpg?w=144", [("Authorization", "Bearer \(token)")])
            #expect(variant.status == 200, "\(token)")
            #expect(variant.fields[.cacheStatus] == "mediactl; fwd=stale; fwd-status=503; ttl=-5; stored; detail=stale-if-error",
                    "\(token)")
        }
    }

    @Test func aPartitionedTiersTagsPurgeEveryPartition() async throws {
        let harness = try Self.harness(["receipts/r.jpg": "user-7-receipts"])
        defer { Task { await harness.close() } }
        #expect(await harness.get("/receipts/r.jpg", [("Authorization", "Bearer t1")]).status == 200)
        #expect(await harness.get("/receipts/r.jpg", [("Authorization", "Bearer t2")]).status == 200)
        #expect(try harness.service.purge(.tag("user-7-receipts", soft: false)) == 2)
        #expect(await harness.get("/receipts/r.jpg", [("Authorization", "Bearer t1")]).fields[.cacheStatus]?
            .hasPrefix("mediactl; fwd=uri-miss") == true)
    }
}
