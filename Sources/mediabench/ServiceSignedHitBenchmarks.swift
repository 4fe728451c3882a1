import Foundation
import HTTPCaching
import MediaCore
import MediaPolicy
import MediaService
import MediaSigning
import MediaTestSupport

/// Public, bearer and signed hits of one 16 KB JPEG (docs/benchmarks.md, "Private and signed hits"): a shared memory
/// tier and two partitioned memory tiers, one with `credentials: bearer-required`, one with `signedURLs`, answered
/// through `handleIfCached` on one thread, rounds alternating (public, bearer, signed, public, …) so drift hits all
/// alike. `MEDIABENCH_SERVICE=signed-hits`; `MEDIABENCH_HIT_KINDS=public,bearer,signed` (default: all) runs only the
/// kinds named, so callgrind can count one kind's instructions per hit (`benchmarks/hits/callgrind.sh`).
enum ServiceSignedHitBenchmarks {
    static let rounds = 7
    static let iterations = ProcessInfo.processInfo.environment["MEDIABENCH_HIT_ITERATIONS"].flatMap { Int($0) } ?? 100_000

    static func run(jpeg: [UInt8]) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("mediabench-signed-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder + "/state", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let secret = Array(UInt8(0)...UInt8(31))
        _ = FileManager.default.createFile(atPath: folder + "/r.keys", contents: Data("k1 \(Base64URL.encode(secret))\n".utf8),
                                       attributes: [.posixPermissions: 0o600])
        // MEDIABENCH_HIT_STORAGE=encrypted-disk: the partitioned tiers seal their files and answer from hot copies.
        let storage = ProcessInfo.processInfo.environment["MEDIABENCH_HIT_STORAGE"] ?? "memory"
        let partitioned = #""storage": "\#(storage)", "cache": "private", "partition": "credential", "maxTTL": 600, "memoryBytes": 67108864, "downstreamCacheControl": "private, no-store""#
        let json = """
        { "tiers": { "public": { "storage": "memory", "cache": "shared", "credentials": "strip", "maxTTL": 600, "memoryBytes": 67108864 },
                     "bearer": { \(partitioned), "credentials": "bearer-required" },
                     "signed": { \(partitioned), "credentials": "strip", "signedURLs": { "keys": "\(folder)/r.keys" } } },
          "routes": [ { "name": "p", "mount": "/p/", "origin": "http://origin.test/r/", "tier": "public" },
                      { "name": "b", "mount": "/b/", "origin": "http://origin.test/r/", "tier": "bearer" },
                      { "name": "s", "mount": "/s/", "origin": "http://origin.test/r/", "tier": "signed" } ] }
        """
        let origin = CountingOriginFetcher()
        origin.setReply(.init(status: 200, fields: ServiceFixture.originFields(), body: jpeg), for: "http://origin.test/r/receipt.jpg")
        let policies = try PolicyLoader().load(sources: [.init(name: "bench.json", text: json)])
        let service = try MediaService(policies: policies, fetcher: origin, configuration: .init(
            stateDirectory: folder + "/state", synchronizesWrites: false))
        defer { ServiceBenchmarks.wait { await service.stop() } }
        let target = try URLSigner(keyID: "k1", secret: secret)
            .sign(path: "/s/receipt.jpg", subject: "user-1042", expires: Int64(Date().timeIntervalSince1970) + 600)
        let kinds = Set((ProcessInfo.processInfo.environment["MEDIABENCH_HIT_KINDS"] ?? "public,bearer,signed")
            .split(separator: ",").map(String.init))
        var bearerFields = ServiceFixture.clientFields
        bearerFields.append(.authorization, "Bearer tok-1042")
        let requests: [(String, ServiceRequest)] = [
            ("public", ServiceRequest(target: "/p/receipt.jpg", fields: ServiceFixture.clientFields)),
            ("bearer", ServiceRequest(target: "/b/receipt.jpg",
                                      fields: bearerFields)),
            ("signed", ServiceRequest(target: target, fields: ServiceFixture.clientFields)),
        ].filter { kinds.contains($0.0) }
        for (name, request) in requests {
            _ = ServiceBenchmarks.wait { await service.handle(request) }
            guard let hit = service.handleIfCached(request), hit.status == 200, hit.outcome.storage == .hit else {
                throw BenchError("the second \(name) request was not a memory hit")
            }
        }
        var best: [String: Double] = [:]
        var all: [String: [Double]] = [:]
        var sink = 0
        for _ in 0..<rounds {
            for (name, request) in requests {
                let ns = Stopwatch.measure(iterations: iterations) { sink &+= service.handleIfCached(request)?.body.count ?? 0 }
                all[name, default: []].append(ns)
                best[name] = min(best[name] ?? .infinity, ns)
            }
        }
        blackHole(sink)
        guard origin.totalCallCount == requests.count else {
            throw BenchError("hits reached the origin \(origin.totalCallCount) times")
        }
        for (name, _) in requests {
            let runs = all[name]!.map { String(format: "%.0f", $0) }.joined(separator: " ")
            print("\(name) hit via handleIfCached: best \(String(format: "%.0f", best[name]!)) ns/hit (rounds: \(runs))")
        }
        if let publicHit = best["public"] {
            for name in ["bearer", "signed"] {
                if let other = best[name] { print(String(format: "\(name) / public: %.2f× (best rounds)", other / publicHit)) }
            }
        }
    }
}
