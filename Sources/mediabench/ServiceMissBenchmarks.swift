import Foundation
import HTTPCaching
import HTTPServer
import MediaCurl
import MediaService
import MediaTestSupport

/// Sequential misses of unique URLs through the service against bare transport fetches of the same
/// image, interleaved round by round (bare block, then service block) so drift hits both alike.
enum ServiceMissBenchmarks {
    /// One configuration: the transport, the storage class, the rounds and misses per round.
    struct Plan: Sendable {
        var label: String
        var storage: String
        var rounds: Int
        var perRound: Int
    }

    /// Totals and latencies of one side (bare fetch or service miss).
    struct Side: Sendable {
        var nanoseconds: UInt64 = 0
        var count = 0
        var latency = ServiceLatency(capacity: 0)
        var meanNs: Double { Double(nanoseconds) / Double(max(count, 1)) }
    }

    /// Environment knobs for profiling (callgrind): `MEDIABENCH_MISS_STORAGE=memory|disk` runs only
    /// the plans of that storage class; `MEDIABENCH_MISS_PER_ROUND=N` overrides misses per round;
    /// `MEDIABENCH_MISS_BARE=0` skips the bare fetches (so the difference between two runs with
    /// different `N` is the service's own cost per miss).
    static let environment = ProcessInfo.processInfo.environment
    static let storageFilter = environment["MEDIABENCH_MISS_STORAGE"]
    static let perRoundOverride = environment["MEDIABENCH_MISS_PER_ROUND"].flatMap { Int($0) }
    static let measuresBare = environment["MEDIABENCH_MISS_BARE"] != "0"
    /// `MEDIABENCH_MISS_SPLIT=1`: time each fetch inside the service too, and print the split.
    static let splits = environment["MEDIABENCH_MISS_SPLIT"] == "1"
    /// `MEDIABENCH_MISS_BARE_SPIN_US=N`: after each bare fetch, spin N µs untimed (as a miss's own work
    /// would), to see whether the next fetch gets slower when the transport's threads go idle meanwhile.
    /// `MEDIABENCH_MISS_BARE_KEEP=1`: keep every bare fetch's body alive until the plan ends, as the
    /// memory store keeps the service's (so both sides allocate fresh memory for each body).
    static let keepsBareBodies = environment["MEDIABENCH_MISS_BARE_KEEP"] == "1"
    /// `MEDIABENCH_MISS_BARE_SCAN=1`: the timed bare fetch also reads its whole body once (a byte sum),
    /// as the service's validation must.
    static let scansBareBodies = environment["MEDIABENCH_MISS_BARE_SCAN"] == "1"
    static let bareSpinNanoseconds = (environment["MEDIABENCH_MISS_BARE_SPIN_US"].flatMap { UInt64($0) } ?? 0) * 1000

    static func selected(_ plans: [Plan]) -> [Plan] {
        plans.filter { storageFilter == nil || $0.storage == storageFilter }.map { plan in
            var plan = plan
            if let perRoundOverride { plan.perRound = perRoundOverride }
            return plan
        }
    }

    /// - Parameters: counting / transport: whether to run the ``CountingOriginFetcher`` and the
    ///   real-transport half (``CurlOriginFetcher``, the bare-fetch reference of its own rows).
    static func run(jpeg: [UInt8], counting: Bool = true, transport: Bool = true) throws {
        let fields = ServiceFixture.originFields()
        for plan in !counting ? [] : selected([Plan(label: "CountingOriginFetcher", storage: "memory", rounds: 5, perRound: 1_000),
                     Plan(label: "CountingOriginFetcher", storage: "disk", rounds: 3, perRound: 100)]) {
            let origin = CountingOriginFetcher()
            for round in 0..<plan.rounds {
                for index in 0..<plan.perRound {
                    // Without bare fetches (`MEDIABENCH_MISS_BARE=0`) their replies are not registered either, so a
                    // callgrind difference counts only the service's misses (plus the counting fetcher's own lookups).
                    for kind in measuresBare ? ["bare", "miss"] : ["miss"] {
                        origin.setReply(.init(status: 200, fields: fields, body: jpeg),
                                        for: "http://origin.test/catalog/\(kind)-\(round)-\(index).jpg")
                    }
                }
            }
            try measure(plan, fetcher: origin, originBase: "http://origin.test/catalog/", bodyCount: jpeg.count)
        }
        guard transport else { return }
        let origin = ServiceOrigin(body: jpeg)
        let (server, port) = try ServiceOrigin.start(origin)
        defer { server.stop() }
        let fetcher = try CurlOriginFetcher()
        for plan in selected([Plan(label: "CurlOriginFetcher, loopback origin", storage: "memory", rounds: 5, perRound: 300),
                              Plan(label: "CurlOriginFetcher, loopback origin", storage: "disk", rounds: 3, perRound: 100)]) {
            try measure(plan, fetcher: fetcher, originBase: "http://127.0.0.1:\(port)/catalog/", bodyCount: jpeg.count)
        }
    }

    private static func measure(_ plan: Plan, fetcher base: any OriginFetching, originBase: String, bodyCount: Int) throws {
        let timed = splits ? ServiceMissTimedFetcher(base) : nil
        let fetcher: any OriginFetching = timed ?? base
        let fixture = try ServiceFixture(fetcher: fetcher, storage: plan.storage, originBase: originBase)
        defer { fixture.close() }
        let service = fixture.service
        var bareFields = ServiceFixture.clientFields
        bareFields.remove(.host)
        let sendable = bareFields
        let result = ServiceBenchmarks.wait { () -> Result<(Side, Side, Side), BenchError> in
            var bare = Side(latency: ServiceLatency(capacity: plan.rounds * plan.perRound))
            var miss = Side(latency: ServiceLatency(capacity: plan.rounds * plan.perRound))
            // With MEDIABENCH_MISS_SPLIT=1: the miss's wall time minus its own fetch's.
            var own = Side(latency: ServiceLatency(capacity: plan.rounds * plan.perRound))
            var keptBodies: [[UInt8]] = []
            // Warm-up: one connection / code path each way (not measured).
            _ = try? await fetcher.fetch(OriginRequest(url: originBase + "bare-0-0.jpg", fields: sendable))
            for round in 0..<plan.rounds {
                for index in 0..<(measuresBare ? plan.perRound : 0) {
                    let start = Stopwatch.now()
                    let response = try? await fetcher.fetch(OriginRequest(url: originBase + "bare-\(round)-\(index).jpg",
                                                                          fields: sendable))
                    if scansBareBodies, let body = response?.body {
                        blackHole(body.withUnsafeBufferPointer { $0.reduce(0 as UInt64) { $0 &+ UInt64($1) } })
                    }
                    let elapsed = Stopwatch.now() - start
                    _ = timed?.take()
                    guard response?.status == 200, response?.body.count == bodyCount else {
                        return .failure(BenchError("bare fetch \(round)-\(index) failed"))
                    }
                    if keepsBareBodies, let body = response?.body { keptBodies.append(body) }
                    bare.nanoseconds += elapsed
                    bare.count += 1
                    bare.latency.record(elapsed)
                    if bareSpinNanoseconds > 0 {
                        let spinUntil = Stopwatch.now() + bareSpinNanoseconds
                        while Stopwatch.now() < spinUntil {}
                    }
                }
                for index in 0..<plan.perRound {
                    let request = ServiceRequest(target: "/catalog/miss-\(round)-\(index).jpg", fields: ServiceFixture.clientFields)
                    let start = Stopwatch.now()
                    let response = await service.handle(request)
                    let elapsed = Stopwatch.now() - start
                    guard response.status == 200, response.body.count == bodyCount, response.outcome.storage?.description == plan.storage else {
                        return .failure(BenchError("miss \(round)-\(index): \(response.status), storage "
                                                   + "\(response.outcome.storage?.description ?? "nil"), \(String(decoding: response.body.prefix(200), as: UTF8.self))"))
                    }
                    miss.nanoseconds += elapsed
                    miss.count += 1
                    miss.latency.record(elapsed)
                    if let timed {
                        let fetched = timed.take().reduce(0, +)
                        let rest = elapsed > fetched ? elapsed - fetched : 0
                        own.nanoseconds += rest
                        own.count += 1
                        own.latency.record(rest)
                    }
                }
                _ = timed?.take()
            }
            blackHole(keptBodies.count)
            return .success((bare, miss, own))
        }
        let (bare, miss, own) = try result.get()
        let meanRatio = miss.meanNs / bare.meanNs
        let p50Ratio = Double(miss.latency.percentile(0.5)) / Double(bare.latency.percentile(0.5))
        let overhead = (miss.meanNs - bare.meanNs) / 1e3
        print(String(format: "miss, storage %@, %@ (%d misses): service %@/miss (%@); bare fetch %@/fetch (%@); "
                     + "service overhead %.1f us/miss; ratio mean %.2fx, p50 %.2fx (goal <= 1.05x)",
                     plan.storage, plan.label, miss.count, ServiceLatency.format(UInt64(miss.meanNs)), miss.latency.summary,
                     ServiceLatency.format(UInt64(bare.meanNs)), bare.latency.summary, overhead, meanRatio, p50Ratio))
        if splits {
            print(String(format: "  split: service time outside its origin fetch %@/miss (%@)",
                         ServiceLatency.format(UInt64(own.meanNs)), own.latency.summary))
        }
    }
}
