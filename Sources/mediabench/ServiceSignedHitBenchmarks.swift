import Foundation
import HTTPCaching
import MediaCore
import MediaPolicy
import MediaService
import MediaSigning
import MediaTestSupport

/// Signed hits against bearer hits of one 16 KB JPEG (docs/benchmarks.md, "Signed URLs"): two partitioned memory tiers,
/// one with `credentials: bearer-required`, one with `signedURLs`, answered through `handleIfCached` on one thread,
/// rounds alternating (bearer, signed, bearer, …) so drift hits both alike. `MEDIABENCH_SERVICE=signed-hits`.
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
        let partitioned = #""storage": "memory", "cache": "private", "partition": "credential", "maxTTL": 600, "memoryBytes": 67108864, "downstreamCacheControl": "private, no-store""#
        let json = """
        { "tiers": { "bearer": { \(partitioned), "credentials": "bearer-required" },
                     "signed": { \(partitioned), "credentials": "strip", "signedURLs": { "keys": "\(folder)/r.keys" } } },
          "routes": [ { "name": "b", "mount": "/b/", "origin": "http://origin.test/r/", "tier": "bearer" },
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
        let requests = [
            ("bearer", ServiceRequest(target: "/b/receipt.jpg", fields: HTTPFields([("Authorization", "Bearer tok-1042")]))),
            ("signed", ServiceRequest(target: target, fields: HTTPFields())),
        ]
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
        guard origin.totalCallCount == 2 else { throw BenchError("hits reached the origin \(origin.totalCallCount) times") }
        for name in ["bearer", "signed"] {
            let runs = all[name]!.map { String(format: "%.0f", $0) }.joined(separator: " ")
            print("\(name) hit via handleIfCached: best \(String(format: "%.0f", best[name]!)) ns/hit (rounds: \(runs))")
        }
        let difference = (best["signed"]! - best["bearer"]!) / 1000
        print(String(format: "signed − bearer: %+.2f µs per hit (best rounds; goal ≤ +2 µs)", difference))
    }
}
