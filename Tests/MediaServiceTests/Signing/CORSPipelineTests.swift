import HTTPCaching
@testable import MediaService
import MediaTestSupport
import Testing

/// Routes with `cors` (docs/signed-urls.md, "CORS"): mediactl answers CORS itself; the origin's CORS never
/// leaks through and never splits the cache.
@Suite struct CORSPipelineTests {
    static let policy = """
    { "tiers": { "public": { "storage": "memory", "maxTTL": 3600,
                             "cors": { "allowOrigins": ["https://app.example.com"], "maxAge": 120, "allowAuthorization": true },
                             "variants": { "widths": [8, 16], "formats": ["png"] } } },
      "routes": [ { "name": "catalog", "mount": "/catalog/", "origin": "http://origin.test/catalog/", "tier": "public" } ] }
    """
    static let url = "http://origin.test/catalog/a.png"
    static let app = ("Origin", "https://app.example.com")

    @Test func preflightsAreAnsweredHereAndNeverReachTheOrigin() async throws {
        let harness = try PipelineHarness(policyJSON: Self.policy)
        defer { Task { await harness.close() } }
        let listed = await harness.get("/catalog/a.png", [Self.app, ("Access-Control-Request-Method", "GET"),
                                                         ("Access-Control-Request-Headers", "authorization")], method: "OPTIONS")
        #expect(listed.status == 204)
        #expect(listed.fields.fields.map { "\($0.name): \($0.value)" } == [
            "Access-Control-Allow-Origin: https://app.example.com", "Access-Control-Allow-Methods: GET, HEAD",
            "Access-Control-Allow-Headers: Authorization", "Access-Control-Max-Age: 120", "Vary: Origin",
            "Cache-Control: no-store", "X-Content-Type-Options: nosniff",
        ])
        let unlisted = await harness.get("/catalog/a.png", [("Origin", "https://evil.example"),
                                                           ("Access-Control-Request-Method", "GET")], method: "OPTIONS")
        #expect(unlisted.status == 403)
        #expect(PipelineSupport.problemCode(unlisted) == "cors-origin-not-allowed")
        #expect(!unlisted.fields.fields.contains { $0.name.lowercased().hasPrefix("access-control-") })
        // Without Access-Control-Request-Method it is no preflight: the route answers GET and HEAD only.
        #expect(await harness.get("/catalog/a.png", [Self.app], method: "OPTIONS").status == 405)
        #expect(harness.origin.totalCallCount == 0)
    }

    @Test func theOriginsCORSAndVaryOriginAreDroppedAndOursAdded() async throws {
        let harness = try PipelineHarness(policyJSON: Self.policy)
        defer { Task { await harness.close() } }
        harness.origin.setReply(.init(fields: ["Cache-Control": "max-age=600", "Access-Control-Allow-Origin": "*",
                                               "Vary": "Origin, Accept-Language", "Timing-Allow-Origin": "*"],
                                      body: PipelineSupport.markedPNG("M")), for: Self.url)
        let first = await harness.get("/catalog/a.png", [Self.app])
        #expect(first.status == 200)
        #expect(first.fields.values(for: "Access-Control-Allow-Origin") == ["https://app.example.com"])
        #expect(first.fields.values(for: "Timing-Allow-Origin") == ["https://app.example.com"])
        #expect(first.fields["Access-Control-Expose-Headers"] == "Age, Cache-Status, ETag")
        #expect(first.fields.values(for: "Vary") == ["Accept-Language", "Origin"])
        // Another origin, and none: the same stored response (the origin never saw Origin), no CORS fields.
        for fields in [[("Origin", "https://evil.example")], []] {
            let answer = await harness.get("/catalog/a.png", fields)
            #expect(answer.fields["Cache-Status"] == "mediactl; hit; ttl=600")
            #expect(!answer.fields.fields.contains { CORSResponder.isCORSField($0.name) })
            #expect(answer.fields.values(for: "Vary") == ["Accept-Language", "Origin"])
        }
        #expect(harness.origin.requests.map { $0.fields["Origin"] } == [nil])
    }
}
