import Foundation
import MediaTestSupport
import Testing

/// `/_mediactl/metrics` of the built binary against a real nginx origin (docs/operations.md, "Metrics"): request
/// durations by tier and outcome, answers by status class, origin fetch durations by route and the build.
@Suite(.enabled(if: NginxOrigin.isAvailable)) struct MetricsEndToEndTests {
    @Test func eachAnswerIsCountedByTierOutcomeAndStatusClass() throws {
        let world = try ServeEnvironment()
        defer { world.tearDown() }
        try world.start()
        #expect(try world.get("/catalog/horse-d29d871c.jpg").status == 200)
        #expect(try world.get("/catalog/horse-d29d871c.jpg").status == 200)
        #expect(try world.get("/nowhere/x.jpg").status == 404)
        #expect(try world.get("/receipts/r-1.png").status == 401)
        let lines = try world.admin("/_mediactl/metrics").text.split(separator: "\n").map(String.init)
        for line in [
            #"mediactl_request_duration_seconds_count{tier="public",outcome="miss"} 1"#,
            #"mediactl_request_duration_seconds_count{tier="public",outcome="hit"} 1"#,
            #"mediactl_request_duration_seconds_count{tier="",outcome="refused"} 1"#,
            #"mediactl_request_duration_seconds_count{tier="private",outcome="refused"} 1"#,
            #"mediactl_responses_total{class="2xx"} 2"#,
            #"mediactl_responses_total{class="4xx"} 2"#,
            #"mediactl_responses_total{class="5xx"} 0"#,
            #"mediactl_origin_fetch_duration_seconds_count{route="catalog"} 1"#,
            "# TYPE mediactl_build_info gauge",
        ] {
            #expect(lines.contains(line), "\(line)")
        }
        let build = try #require(lines.first { $0.hasPrefix("mediactl_build_info{") })
        #expect(build.hasPrefix(#"mediactl_build_info{version="0.1.0",commit=""#) && build.hasSuffix(#""} 1"#), "\(build)")
        // The hit took less than the miss's 10 s top bucket: it is in a finite bucket.
        #expect(lines.contains(#"mediactl_request_duration_seconds_bucket{tier="public",outcome="hit",le="10"} 1"#))
    }
}
