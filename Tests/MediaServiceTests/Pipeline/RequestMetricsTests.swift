import HTTPCaching
import MediaCore
@testable import MediaService
import MediaTestSupport
import Testing

/// `mediactl_request_duration_seconds{tier,outcome}`, `mediactl_responses_total{class}`,
/// `mediactl_origin_fetch_duration_seconds{route}`, `mediactl_build_info` and derived images' `coalesced_total`
/// (docs/operations.md, "Metrics").
@Suite struct RequestMetricsTests {
    @Test func outcomesFollowTheCacheStatus() {
        let cases: [(String?, HTTPStatus, RequestMetrics.Outcome)] = [
            ("mediactl; hit; ttl=60", 200, .hit),
            ("mediactl; hit; ttl=40", 404, .hit),
            ("mediactl; hit; ttl=-5; detail=stale-while-revalidate", 200, .stale),
            ("mediactl; fwd=uri-miss; fwd-status=502; detail=stale-if-error", 200, .stale),
            ("mediactl; fwd=uri-miss; fwd-status=200; ttl=60; stored; detail=disk", 200, .miss),
            ("mediactl; fwd=uri-miss; fwd-status=200; ttl=60; stored; collapsed; detail=disk", 200, .miss),
            ("mediactl; fwd=stale; fwd-status=304; ttl=60", 200, .miss),
            (nil, 404, .refused),
            (nil, 401, .refused),
            ("mediactl; fwd=uri-miss; fwd-status=404", 404, .refused),
            (nil, 502, .error),
            ("mediactl; fwd=uri-miss; fwd-status=503", 502, .error),
            (nil, 204, .none),
            // A stored 502 (a remembered refusal) served from storage is a hit; a variant made from a stored source a miss.
            ("mediactl; hit; ttl=30", 502, .hit),
            ("mediactl; ttl=28; stored; detail=disk", 200, .miss),
        ]
        for (cacheStatus, status, outcome) in cases {
            #expect(RequestMetrics.Outcome.of(cacheStatus: cacheStatus, status: status) == outcome, "\(cacheStatus ?? "nil") \(status)")
        }
    }

    @Test func histogramsAndStatusClassesAreExportedExactly() {
        let metrics = RequestMetrics(tiers: ["public"])
        metrics.record(tier: "public", cacheStatus: "mediactl; hit; ttl=60", status: 200, microseconds: 300)
        metrics.record(tier: "public", cacheStatus: "mediactl; hit; ttl=60", status: 200, microseconds: 1_500)
        metrics.record(tier: nil, cacheStatus: nil, status: 404, microseconds: 20)
        metrics.record(tier: "added", cacheStatus: nil, status: 503, microseconds: 12_000_000)
        let lines = metrics.lines()
        let hit = lines.filter { $0.hasPrefix("mediactl_request_duration_seconds") && $0.contains("outcome=\"hit\"") }
        #expect(hit == [
            #"mediactl_request_duration_seconds_bucket{tier="public",outcome="hit",le="0.0005"} 1"#,
            #"mediactl_request_duration_seconds_bucket{tier="public",outcome="hit",le="0.001"} 1"#,
            #"mediactl_request_duration_seconds_bucket{tier="public",outcome="hit",le="0.0025"} 2"#,
            #"mediactl_request_duration_seconds_bucket{tier="public",outcome="hit",le="0.005"} 2"#,
            #"mediactl_request_duration_seconds_bucket{tier="public",outcome="hit",le="0.01"} 2"#,
            #"mediactl_request_duration_seconds_bucket{tier="public",outcome="hit",le="0.025"} 2"#,
            #"mediactl_request_duration_seconds_bucket{tier="public",outcome="hit",le="0.05"} 2"#,
            #"mediactl_request_duration_seconds_bucket{tier="public",outcome="hit",le="0.1"} 2"#,
            #"mediactl_request_duration_seconds_bucket{tier="public",outcome="hit",le="0.25"} 2"#,
            #"mediactl_request_duration_seconds_bucket{tier="public",outcome="hit",le="0.5"} 2"#,
            #"mediactl_request_duration_seconds_bucket{tier="public",outcome="hit",le="1"} 2"#,
            #"mediactl_request_duration_seconds_bucket{tier="public",outcome="hit",le="2.5"} 2"#,
            #"mediactl_request_duration_seconds_bucket{tier="public",outcome="hit",le="5"} 2"#,
            #"mediactl_request_duration_seconds_bucket{tier="public",outcome="hit",le="10"} 2"#,
            #"mediactl_request_duration_seconds_bucket{tier="public",outcome="hit",le="+Inf"} 2"#,
            #"mediactl_request_duration_seconds_sum{tier="public",outcome="hit"} 0.0018"#,
            #"mediactl_request_duration_seconds_count{tier="public",outcome="hit"} 2"#,
        ])
        #expect(lines.contains(#"mediactl_request_duration_seconds_count{tier="",outcome="refused"} 1"#))
        #expect(lines.contains(#"mediactl_request_duration_seconds_bucket{tier="added",outcome="error",le="10"} 0"#))
        #expect(lines.contains(#"mediactl_request_duration_seconds_bucket{tier="added",outcome="error",le="+Inf"} 1"#))
        // Only the (tier, outcome) pairs that saw a request.
        #expect(!lines.contains { $0.contains("outcome=\"miss\"") })
        #expect(lines.suffix(5) == [
            #"mediactl_responses_total{class="1xx"} 0"#, #"mediactl_responses_total{class="2xx"} 2"#,
            #"mediactl_responses_total{class="3xx"} 0"#, #"mediactl_responses_total{class="4xx"} 1"#,
            #"mediactl_responses_total{class="5xx"} 1"#,
        ])
    }

    @Test func theServiceExportsOriginFetchesAndItsBuild() async throws {
        let harness = try PipelineHarness()
        defer { Task { await harness.close() } }
        harness.origin.setReply(.init(fields: HTTPFields([("Content-Type", "image/jpeg"), ("Cache-Control", "max-age=60")]),
                                      body: try Fixtures.bytes("catalog/coins-1fea11f1.jpg")),
                                for: "http://origin.test/catalog/coins.jpg")
        _ = await harness.get("/catalog/coins.jpg")
        _ = await harness.get("/catalog/coins.jpg")
        let text = await harness.get("/_mediactl/metrics").text
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines.contains(#"mediactl_origin_fetch_duration_seconds_count{route="catalog"} 1"#))
        #expect(lines.contains("# TYPE mediactl_build_info gauge"))
        let build = try #require(lines.first { $0.hasPrefix("mediactl_build_info{") })
        #expect(build == "mediactl_build_info{version=\"0.1.0\",commit=\"\(ServiceVersion.commit)\"} 1")
        #expect(ServiceVersion.commit == "unknown"
            || (ServiceVersion.commit.utf8.count == 12 && ServiceVersion.commit.allSatisfy { $0.isHexDigit && !$0.isUppercase }))
        #expect(lines.contains("# TYPE mediactl_request_duration_seconds histogram"))
    }

    /// A tier with variants whose origin holds every answer (`hubble-1000.jpg` at `/catalog/hubble.jpg`) until opened.
    static func derivationHarness(transforms: TransformConfiguration = .init()) throws -> (PipelineHarness, GatedOrigin) {
        let jpeg = try Fixtures.bytes("large/hubble-1000.jpg")
        let origin = GatedOrigin { _, _ in
            OriginResponse(status: 200, fields: ["Cache-Control": "max-age=31536000"], body: jpeg)
        }
        let policy = """
        { "tiers": { "public": { "storage": "disk", "maxTTL": 31536000,
                                 "variants": { "widths": [72, 144], "formats": ["jpeg"], "quality": 80 } } },
          "routes": [ { "name": "catalog", "mount": "/catalog/", "origin": "http://origin.test/catalog/", "tier": "public" } ] }
        """
        return (try PipelineHarness(policyJSON: policy, fetcher: origin, transforms: transforms), origin)
    }

    @Test func derivedImageRequestsThatJoinADerivationAreCoalesced() async throws {
        let (harness, origin) = try Self.derivationHarness()
        defer { Task { await harness.close() } }
        async let responses = PipelineSupport.concurrently(20) { _ in await harness.get("/catalog/hubble.jpg?w=144") }
        #expect(await eventually {
            harness.service.cacheLookup.derivations.flights.withLock { table in table.values.reduce(0) { $0 + $1.waiters.count } } == 19
        })
        await origin.open()
        let all = await responses
        #expect(all.allSatisfy { $0.status == 200 })
        #expect(origin.callCount == 1)
        let metrics = (await harness.get("/_mediactl/metrics")).text
        #expect(metrics.contains("mediactl_coalesced_total{tier=\"public\"} 19\n"))
    }

    /// A failed derivation's answer goes to the requests that joined it: the transform runs once, not once per
    /// waiter (here it times out: a deadline of 0 s).
    @Test func requestsThatJoinAFailedDerivationShareItsAnswer() async throws {
        let (harness, origin) = try Self.derivationHarness(transforms: TransformConfiguration(timeout: 0))
        defer { Task { await harness.close() } }
        async let responses = PipelineSupport.concurrently(8) { _ in await harness.get("/catalog/hubble.jpg?w=144") }
        #expect(await eventually {
            harness.service.cacheLookup.derivations.flights.withLock { table in table.values.reduce(0) { $0 + $1.waiters.count } } == 7
        })
        await origin.open()
        let all = await responses
        #expect(all.map(\.status) == Array(repeating: 503, count: 8))
        #expect(all.allSatisfy { String(decoding: $0.body, as: UTF8.self).contains(#""code":"transform-timeout""#) })
        let metrics = (await harness.get("/_mediactl/metrics")).text
        #expect(metrics.contains("mediactl_coalesced_total{tier=\"public\"} 7\n"))
        #expect(metrics.contains("mediactl_transform_seconds_count{tier=\"public\"} 1\n"), "\(metrics)")
    }
}
