import Foundation
import MediaService
import MediaTestSupport

/// Memory hits of the 16 KB catalog JPEG: `handleIfCached` and `handle`, one thread.
/// `MEDIABENCH_HIT_ITERATIONS` (default 200,000) sets the hits per round (lower it under callgrind).
enum ServiceHitBenchmarks {
    static let rounds = 5
    static let iterations = ProcessInfo.processInfo.environment["MEDIABENCH_HIT_ITERATIONS"].flatMap { Int($0) } ?? 200_000

    static func run(jpeg: [UInt8]) throws {
        for storage in ["memory", "disk"] {
            let origin = CountingOriginFetcher()
            origin.setReply(.init(status: 200, fields: ServiceFixture.originFields(), body: jpeg),
                            for: "http://origin.test/catalog/chelsea-5d40df37.jpg")
            let fixture = try ServiceFixture(fetcher: origin, storage: storage, synchronizesWrites: false)
            defer { fixture.close() }
            let service = fixture.service
            let request = ServiceRequest(target: "/catalog/chelsea-5d40df37.jpg", fields: ServiceFixture.clientFields)
            let first = ServiceBenchmarks.wait { await service.handle(request) }
            guard first.status == 200, first.outcome.storage?.description == storage else {
                throw BenchError("priming miss answered \(first.status), storage \(first.outcome.storage?.description ?? "nil")")
            }
            guard let hit = service.handleIfCached(request), hit.status == 200, hit.outcome.storage == .hit,
                  hit.body == jpeg else {
                throw BenchError("the second request was not a memory hit")
            }
            let label = storage == "memory" ? "memory hit" : "disk-tier hit (hot memory copy)"
            // handleIfCached: throughput (best round), then per-call latency.
            var sink = 0
            let syncNs = (0..<rounds).map { _ in
                Stopwatch.measure(iterations: iterations) { sink &+= service.handleIfCached(request)?.body.count ?? 0 }
            }.min()!
            var syncLatency = ServiceLatency(capacity: iterations)
            for _ in 0..<iterations {
                let start = Stopwatch.now()
                sink &+= service.handleIfCached(request)?.body.count ?? 0
                syncLatency.record(Stopwatch.now() - start)
            }
            report("\(label) 16 KB JPEG via handleIfCached", ns: syncNs, latency: syncLatency)
            // handle (async), on one task.
            let (asyncNs, asyncLatency, asyncSink) = ServiceBenchmarks.wait { () -> (Double, ServiceLatency, Int) in
                var sink = 0
                var fastest = Double.infinity
                for _ in 0..<rounds {
                    let start = Stopwatch.now()
                    for _ in 0..<iterations { sink &+= await service.handle(request).body.count }
                    fastest = min(fastest, Double(Stopwatch.now() - start) / Double(iterations))
                }
                var latency = ServiceLatency(capacity: iterations)
                for _ in 0..<iterations {
                    let start = Stopwatch.now()
                    sink &+= await service.handle(request).body.count
                    latency.record(Stopwatch.now() - start)
                }
                return (fastest, latency, sink)
            }
            report("\(label) 16 KB JPEG via handle", ns: asyncNs, latency: asyncLatency)
            blackHole(sink &+ asyncSink)
            guard origin.totalCallCount == 1 else { throw BenchError("hits reached the origin \(origin.totalCallCount) times") }
        }
    }

    private static func report(_ name: String, ns: Double, latency: ServiceLatency) {
        let perSecond = Int(1e9 / ns)
        print("\(name): \(ServiceBenchmarks.grouped(perSecond)) hits/s on one thread (goal >= 1,000,000), "
              + "\((ns * 10).rounded() / 10) ns/hit; latency \(latency.summary)")
    }
}
