import HTTPCaching
import MediaCore
import MediaTestSupport
import Testing

@testable import MediaService

/// A tier's `defaultTTL` and `"heuristic": false` on an origin that sends no `Cache-Control`, as
/// `python3 -m http.server` and S3 do: only `Last-Modified`, 480 s old (RFC 9111's heuristic would give 48 s).
@Suite struct DefaultTTLPipelineTests {
    static let publicTier = #""maxTTL": 31536000, "maxObjectBytes": 10485760"#

    static func harness(_ keys: String) throws -> PipelineHarness {
        try PipelineHarness(policyJSON: PipelineHarness.defaultPolicy.replacingOccurrences(
            of: publicTier, with: keys + ", " + publicTier))
    }

    static func reply(_ harness: PipelineHarness) throws {
        let now = Int64(harness.clock.now)
        harness.origin.setReply(.init(fields: ["Date": HTTPDate.format(now), "Last-Modified": HTTPDate.format(now - 480)],
                                      body: try Fixtures.bytes("catalog/coins-1fea11f1.jpg")),
                                for: "http://origin.test/catalog/a.jpg")
    }

    func cacheStatus(_ harness: PipelineHarness) async -> String? {
        await harness.get("/catalog/a.jpg").fields[.cacheStatus]
    }

    @Test func theDefaultTTLReplacesTheHeuristic() async throws {
        let harness = try Self.harness(#""defaultTTL": 3600"#)
        defer { Task { await harness.close() } }
        try Self.reply(harness)
        #expect(await cacheStatus(harness) == "mediactl; fwd=uri-miss; fwd-status=200; ttl=3600; stored; detail=disk")
        harness.clock.advance(3000)
        #expect(await cacheStatus(harness) == "mediactl; hit; ttl=600")
        #expect(harness.origin.callCount(for: "http://origin.test/catalog/a.jpg") == 1)
        // The decision is audited with the lifetime it was stored for.
        let stores = try harness.auditRecords().filter { $0.event == .store }
        #expect(stores.map { "\($0.tier?.rawValue ?? "-"):\($0.storage?.rawValue ?? "-"):\($0.ttl.map(String.init) ?? "-")" }
            == ["public:disk:3600"])
    }

    @Test func theDefaultTTLIsCappedByMaxTTL() async throws {
        let harness = try PipelineHarness(policyJSON: PipelineHarness.defaultPolicy.replacingOccurrences(
            of: Self.publicTier, with: #""defaultTTL": 3600, "maxTTL": 600, "maxObjectBytes": 10485760"#))
        defer { Task { await harness.close() } }
        try Self.reply(harness)
        #expect(await cacheStatus(harness) == "mediactl; fwd=uri-miss; fwd-status=200; ttl=600; stored; detail=disk")
    }

    @Test func withoutTheHeuristicTheImageIsStaleAtOnce() async throws {
        let harness = try Self.harness(#""heuristic": false"#)
        defer { Task { await harness.close() } }
        try Self.reply(harness)
        let first = await cacheStatus(harness)
        let second = await cacheStatus(harness)
        #expect(first == "mediactl; fwd=uri-miss; fwd-status=200; ttl=0; stored; detail=disk")
        // Stored, but stale: the next request goes to the origin (with `If-Modified-Since`, the validator it has).
        #expect(second == "mediactl; fwd=stale; fwd-status=200; ttl=0; stored; detail=disk")
        #expect(harness.origin.callCount(for: "http://origin.test/catalog/a.jpg") == 2)
        let now = Int64(harness.clock.now)
        #expect(harness.origin.requests.map { $0.fields[.ifModifiedSince] } == [nil, HTTPDate.format(now - 480)])
    }

    @Test func theHeuristicStaysTheDefault() async throws {
        let harness = try PipelineHarness()
        defer { Task { await harness.close() } }
        try Self.reply(harness)
        #expect(await cacheStatus(harness) == "mediactl; fwd=uri-miss; fwd-status=200; ttl=48; stored; detail=disk")
    }
}
