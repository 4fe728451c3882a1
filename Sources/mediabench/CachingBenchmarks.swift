import HTTPCaching
import MediaCore

/// Caching benchmarks; see docs/benchmarks.md.
/// Goals: `Cache-Control` parse of `public, max-age=31536000, immutable` ≥ 5 million/s on one core;
/// one serving decision (fresh hit) < 200 ns.
enum CachingBenchmarks {
    static func run() throws {
        let header = "public, max-age=31536000, immutable"
        var sink: Int64 = 0
        // Warm-up, then measure.
        for _ in 0..<100_000 { sink &+= CacheControl(header).maxAge ?? 0 }
        let parseIterations = 5_000_000
        let parseNs = best(iterations: parseIterations) {
            sink &+= CacheControl(header).maxAge ?? 0
        }
        report("Cache-Control parse (\(header))", parseNs)

        let now: EpochSeconds = 1_700_000_000
        let stored = StoredResponse(
            status: 200,
            fields: [(.cacheControl, header), (.date, HTTPDate.format(now - 100)), (.eTag, "\"v1\""),
                     (.contentType, "image/jpeg"), (.contentLength, "48213")],
            requestTime: now - 100, responseTime: now - 100)
        let request = CacheRequest(method: .get, fields: [(.accept, "image/*")])
        let candidates = [stored]
        let decisionIterations = 2_000_000
        let decisionNs = best(iterations: decisionIterations) {
            var machine = ServingDecision(request: request, candidates: candidates, role: .shared, digest: { $0 })
            if case .serveFresh(_, let age) = machine.lookup(now: now) { sink &+= age }
        }
        report("serving decision (fresh hit, prepared request)", decisionNs)

        let fullNs = best(iterations: decisionIterations) {
            let request = CacheRequest(method: .get, fields: [(.accept, "image/*")])
            var machine = ServingDecision(request: request, candidates: candidates, role: .shared, digest: { $0 })
            if case .serveFresh(_, let age) = machine.lookup(now: now) { sink &+= age }
        }
        report("serving decision incl. request parsing", fullNs)

        let dateNs = best(iterations: 2_000_000) {
            sink &+= HTTPDate.parse("Sun, 06 Nov 1994 08:49:37 GMT") ?? 0
        }
        report("HTTP-date parse (IMF-fixdate)", dateNs)
        blackHole(sink)
    }

    /// The fastest of five rounds (the machine is shared; the minimum is the least disturbed figure).
    private static func best(iterations: Int, _ body: () -> Void) -> Double {
        var fastest = Double.infinity
        for _ in 0..<5 { fastest = min(fastest, Stopwatch.measure(iterations: iterations / 5, body)) }
        return fastest
    }

    private static func report(_ name: String, _ nanoseconds: Double) {
        let perSecond = 1_000_000_000 / nanoseconds
        let ns = (nanoseconds * 10).rounded() / 10
        print("\(name): \(ns) ns/op, \(Int(perSecond)) ops/s")
    }
}
