import HTTPCaching
import MediaAudit
import MediaCore
import MediaService
import MediaTestSupport
import Testing

/// `purge(.url)` through the pipeline (docs/operations.md, "Purging one URL"): one URL's stored responses in every
/// partition, its derived images and its negative entry go; a URL that merely starts the same, other routes and other
/// tiers stay; refusals name the problem.
@Suite struct URLPurgePipelineTests {
    static let policy = """
    { "tiers": {
        "public":  { "storage": "disk", "maxTTL": 31536000, "errorTTL": { "404": 60 },
                     "variants": { "widths": [72, 144], "formats": ["jpeg"], "quality": 80 } },
        "private": { "storage": "encrypted-disk", "cache": "private", "credentials": "bearer-required",
                     "partition": "credential", "maxTTL": 600 } },
      "routes": [
        { "name": "catalog", "mount": "/catalog/", "origin": "http://origin.test/catalog/", "tier": "public" },
        { "name": "receipts", "mount": "/receipts/", "origin": "http://origin.test/receipts/", "tier": "private" } ] }
    """

    static func harness() throws -> PipelineHarness {
        let harness = try PipelineHarness(policyJSON: policy)
        let coins = try Fixtures.bytes("catalog/coins-1fea11f1.jpg")
        for path in ["catalog/a.jpg", "catalog/a.jpg2", "catalog/b.jpg", "receipts/r.jpg"] {
            harness.origin.setReply(.init(fields: HTTPFields([("Content-Type", "image/jpeg"), ("Cache-Control", "max-age=3600")]),
                                          body: coins), for: "http://origin.test/\(path)")
        }
        harness.origin.setReply(.init(status: 404, fields: HTTPFields([("Content-Type", "text/plain")]), body: []),
                                for: "http://origin.test/catalog/gone.jpg")
        return harness
    }

    @Test func oneURLWithItsVariantsGoesAndNothingElse() async throws {
        let harness = try Self.harness()
        defer { Task { await harness.close() } }
        for path in ["/catalog/a.jpg", "/catalog/a.jpg?w=72", "/catalog/a.jpg?w=144", "/catalog/a.jpg2", "/catalog/b.jpg"] {
            #expect(await harness.get(path).status == 200, "\(path)")
        }
        // A variant's parameters name its source: the source and every variant go.
        #expect(try harness.service.purge(.url("/catalog/a.jpg?w=144")) == 3)
        // The variant is derived again from a source fetched again (a variant of a stored source has no `fwd`).
        #expect(await harness.get("/catalog/a.jpg?w=72").fields[.cacheStatus]?.hasPrefix("mediactl; fwd=uri-miss") == true)
        #expect(harness.origin.requests.filter { $0.url == "http://origin.test/catalog/a.jpg" }.count == 2)
        #expect(await harness.get("/catalog/a.jpg?w=144").fields[.cacheStatus]?.hasPrefix("mediactl; hit") == false)
        for path in ["/catalog/a.jpg2", "/catalog/b.jpg"] {
            #expect(await harness.get(path).fields[.cacheStatus]?.hasPrefix("mediactl; hit") == true, "\(path)")
        }
        let summary = try #require(try harness.auditRecords().map(\.entry).last { $0.event == .purge && $0.key == nil })
        #expect(summary.reason?.rawValue == "purge-url")
        #expect(summary.count == 3)
        #expect(summary.route?.rawValue == "catalog")
        #expect(summary.url == nil)
    }

    @Test func everyPartitionsCopyAndANegativeEntryGo() async throws {
        let harness = try Self.harness()
        defer { Task { await harness.close() } }
        for token in ["t1", "t2"] {
            #expect(await harness.get("/receipts/r.jpg", [("Authorization", "Bearer \(token)")]).status == 200)
        }
        #expect(await harness.get("/catalog/gone.jpg").status == 404)
        #expect(try harness.service.purge(.url("/receipts/r.jpg")) == 2)
        #expect(try harness.service.purge(.url("/catalog/gone.jpg")) == 1)
        #expect(try harness.service.purge(.url("/catalog/never-stored.jpg")) == 0)
    }

    @Test func refusalsNameTheProblem() throws {
        let harness = try Self.harness()
        defer { Task { await harness.close() } }
        #expect(throws: ServiceError(.unknownRoute, "no route is mounted at /nowhere/a.jpg")) {
            try harness.service.purge(.url("/nowhere/a.jpg"))
        }
        #expect(throws: ServiceError(.invalidURL, "dot-segment: '..' segment at index 1")) {
            try harness.service.purge(.url("/catalog/../a.jpg"))
        }
        #expect(throws: ServiceError(.invalidURL, "variant-not-allowed: w=100 is not allowed: w × dpr must be one of 72, 144")) {
            try harness.service.purge(.url("/catalog/a.jpg?w=100"))
        }
    }
}
