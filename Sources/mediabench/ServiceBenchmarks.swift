import Dispatch
import Foundation
import HTTPCaching
import MediaService
import MediaTestSupport
import Synchronization

/// Service benchmarks (issue 5 item 11); see docs/benchmarks.md, "Service (in-process)".
///
/// - Memory hits of a 16 KB catalog JPEG through ``MediaService/handleIfCached(_:)`` and
///   ``MediaService/handle(_:)`` on one thread: hits/s (goal ≥ 1,000,000) and p50/p99 latency.
/// - Miss overhead: sequential misses of unique URLs through the service (image validation,
///   hook chain, store, audit record) against the bare transport fetch of the same bytes, as a
///   time ratio (goal ≤ 1.05), with storage class `memory` and with `disk` (fsync, as served);
///   once with ``CountingOriginFetcher`` (no transport cost: the ratio is pure service cost) and
///   once with the service's transport, ``CurlOriginFetcher``, against a loopback `HTTPServer` origin
///   (its bare fetch is the reference of those rows).
/// - 1,000 concurrent cold requests for one URL (origin answers after 50 ms): origin fetches (goal 1).
///
/// `MEDIABENCH_SERVICE=hits,misses,coalescing` (default: all three) runs only the parts named,
/// e.g. `MEDIABENCH_SERVICE=hits` under a profiler; `misses-counting` and `misses-transport` run
/// one half of `misses`.
enum ServiceBenchmarks {
    static func run() throws {
        let parts = Set((ProcessInfo.processInfo.environment["MEDIABENCH_SERVICE"] ?? "hits,misses,coalescing")
            .split(separator: ",").map(String.init))
        let jpeg = try ServiceFixture.catalogJPEG()
        if parts.contains("hits") { try ServiceHitBenchmarks.run(jpeg: jpeg) }
        if parts.contains("signed-hits") { try ServiceSignedHitBenchmarks.run(jpeg: jpeg) }
        if parts.contains("misses") || parts.contains("misses-counting") || parts.contains("misses-transport") {
            try ServiceMissBenchmarks.run(jpeg: jpeg, counting: !parts.contains("misses-transport"),
                                          transport: !parts.contains("misses-counting"))
        }
        if parts.contains("coalescing") { try coalescing(jpeg: jpeg) }
    }

    /// 1,000 concurrent cold `handle` calls for one URL; the origin answers after 50 ms.
    static func coalescing(jpeg: [UInt8]) throws {
        let origin = CountingOriginFetcher()
        let url = "http://origin.test/catalog/cold.jpg"
        origin.setReply(.init(status: 200, fields: ServiceFixture.originFields(), body: jpeg,
                              delay: .milliseconds(50)), for: url)
        let fixture = try ServiceFixture(fetcher: origin, storage: "memory")
        defer { fixture.close() }
        let service = fixture.service
        let request = ServiceRequest(target: "/catalog/cold.jpg", fields: ServiceFixture.clientFields)
        let callers = 1_000
        let start = Stopwatch.now()
        let (ok, collapsed) = wait { () -> (Int, Int) in
            await withTaskGroup(of: (Bool, Bool).self) { group in
                for _ in 0..<callers {
                    group.addTask {
                        let response = await service.handle(request)
                        return (response.status == 200 && response.body.count == jpeg.count,
                                response.outcome.storage == .collapsed)
                    }
                }
                var ok = 0
                var collapsed = 0
                for await (good, joined) in group {
                    if good { ok += 1 }
                    if joined { collapsed += 1 }
                }
                return (ok, collapsed)
            }
        }
        let milliseconds = Double(Stopwatch.now() - start) / 1e6
        let fetches = origin.callCount(for: url)
        print(String(format: "1,000 concurrent cold requests (origin delay 50 ms): %d origin fetch(es) (goal 1), "
                     + "%d answered 200 with the image, %d joined the flight, %d served later as hits; %.0f ms",
                     fetches, ok, collapsed, callers - collapsed - 1, milliseconds))
    }

    /// Runs `body` in a detached task and blocks this (non-pool) thread until it returns.
    static func wait<T: Sendable>(_ body: @escaping @Sendable () async -> T) -> T {
        let result = Mutex<T?>(nil)
        let done = DispatchSemaphore(value: 0)
        Task.detached {
            let value = await body()
            result.withLock { $0 = value }
            done.signal()
        }
        done.wait()
        return result.withLock { $0! }
    }

    /// `1234567` → `1,234,567`.
    static func grouped(_ value: Int) -> String {
        let digits = String(value)
        var out = ""
        for (index, character) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 { out += "," }
            out.append(character)
        }
        return out
    }
}
