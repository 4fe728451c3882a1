import Foundation
import MediaTestSupport
import Testing

/// Cache tags and soft purge with the repository's default policies (`tagHeader: "Surrogate-Key"` on `public`),
/// against the built binary and a real nginx origin that tags its answers: `mediactl purge --tag` removes exactly the
/// tagged objects, variants included, `--soft` makes them revalidate (nginx answers the `If-None-Match` with 304), the
/// same through `--replicas`, and the audit stays clean and free of tags.
@Suite(.enabled(if: NginxOrigin.isAvailable), .serialized) struct CacheTagEndToEndTests {
    static func originConfig() -> String {
        let catalog = NginxOrigin.fixturesDirectory.appendingPathComponent("catalog").path
        return """
        location = /tagged/a.jpg { alias \(catalog)/coins-1fea11f1.jpg; add_header Cache-Control "max-age=3600"; add_header Surrogate-Key "product-42 sale"; }
        location = /tagged/b.jpg { alias \(catalog)/horse-d29d871c.jpg; add_header Cache-Control "max-age=3600"; add_header Surrogate-Key "product-4"; }
        """
    }

    static func policy(originBase: String) throws -> String {
        try ServeEnvironment.repositoryDefaultPolicy(originBase: originBase).replacingOccurrences(
            of: #""routes": ["#,
            with: #""routes": [ { "name": "tagged", "mount": "/tagged/", "origin": ""# + originBase + #"/tagged/", "tier": "public" },"#)
    }

    @Test func purgeByTagAndSoftPurge() throws {
        let world = try ServeEnvironment(originServerConfig: Self.originConfig(), policy: Self.policy(originBase:))
        defer { world.tearDown() }
        try world.start()
        for path in ["/tagged/a.jpg", "/tagged/a.jpg?w=144", "/tagged/b.jpg"] {
            let answer = try world.get(path)
            #expect(answer.status == 200, "\(path)")
            #expect(answer.header("Surrogate-Key") == nil, "\(path)")
        }
        let state = world.stateDirectory.path
        let hard = try MediactlProcess.run(["purge", "--tag", "product-42", "--state-dir", state])
        #expect(hard.exitCode == 0, "\(hard.stderr)")
        #expect(hard.stdout == "purged 2 entries\n")
        #expect(try world.get("/tagged/b.jpg").header("Cache-Status")?.hasPrefix("mediactl; hit") == true)
        #expect(try world.get("/tagged/a.jpg").header("Cache-Status")?.hasPrefix("mediactl; fwd=uri-miss") == true)

        let soft = try MediactlProcess.run(["purge", "--tag", "product-4", "--soft", "--state-dir", state])
        #expect(soft.exitCode == 0, "\(soft.stderr)")
        #expect(soft.stdout == "marked 1 entry stale\n")
        let revalidated = try world.get("/tagged/b.jpg")
        #expect(revalidated.status == 200)
        #expect(revalidated.header("Cache-Status")?.hasPrefix("mediactl; fwd=stale; fwd-status=304") == true)
        let bLog = world.origin.accessLog(prefix: "/tagged/b.jpg", count: 2)
        #expect(bLog.count == 2)
        #expect(bLog.last?.contains("inm=-") == false, "\(bLog)")
        #expect(bLog.last?.contains("status=304") == true)

        // Through --replicas, the fleet form: the soft purge of "sale" marks a.jpg (stored again above).
        let fleet = world.root.appendingPathComponent("fleet.txt").path
        try Data("http://127.0.0.1:\(world.adminPort) \(state)\n".utf8).write(to: URL(fileURLWithPath: fleet))
        let fanOut = try MediactlProcess.run(["purge", "--tag", "sale", "--soft", "--replicas", fleet])
        #expect(fanOut.exitCode == 0, "\(fanOut.stderr)")
        #expect(fanOut.stdout == "http://127.0.0.1:\(world.adminPort): marked 1 entry stale\ntotal: marked 1 entry stale on 1 of 1 replicas\n")

        #expect(world.stop() == 0)
        let log = try String(contentsOf: world.stateDirectory.appendingPathComponent("audit/audit.jsonl"), encoding: .utf8)
        let lines = log.split(separator: "\n")
        #expect(lines.filter { $0.contains(#""reason":"purge-tag""#) && $0.contains(#""tag":""#) }.count == 1)
        #expect(lines.filter { $0.contains(#""reason":"purge-tag-soft""#) && $0.contains(#""tag":""#) }.count == 2)
        #expect(lines.filter { $0.contains(#""reason":"soft-purge""#) }.count == 2)
        for tag in ["product-42", "product-4", "sale", "Surrogate"] { #expect(!log.contains(tag), "\(tag)") }
        let (result, report) = try world.audit()
        #expect(result.exitCode == 0, "\(result.stdout)\(result.stderr)")
        #expect(report?.clean == true)
    }

    /// A variant derived from a source served stale says so (binary + nginx): after a soft purge, with nginx answering
    /// 503, the source is served `stale-if-error` and its variants, stored ones and new ones, carry the same
    /// `fwd`, `fwd-status` and `detail`, and a `ttl` of at most the source's.
    @Test func aVariantOfAStaleSourceSaysSo() throws {
        let flag = FileManager.default.temporaryDirectory.appendingPathComponent("origin-fails-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: flag) }
        let catalog = NginxOrigin.fixturesDirectory.appendingPathComponent("catalog").path
        let config = Self.originConfig() + """

        location = /tagged/c.jpg { if (-f \(flag)) { return 503; } alias \(catalog)/coins-1fea11f1.jpg; add_header Cache-Control "max-age=3600, stale-if-error=86400"; add_header Surrogate-Key "stale-test"; }
        """
        let world = try ServeEnvironment(originServerConfig: config, policy: Self.policy(originBase:))
        defer { world.tearDown() }
        try world.start()
        #expect(try world.get("/tagged/c.jpg?w=144").status == 200)
        let soft = try MediactlProcess.run(["purge", "--tag", "stale-test", "--soft", "--state-dir", world.stateDirectory.path])
        #expect(soft.stdout == "marked 2 entries stale\n", "\(soft.stderr)")
        FileManager.default.createFile(atPath: flag, contents: Data())
        func ttl(_ status: String?, prefix: String, suffix: String) -> Int? {
            guard let status, status.hasPrefix(prefix), status.hasSuffix(suffix) else { return nil }
            return Int(status.dropFirst(prefix.count).dropLast(suffix.count))
        }
        let prefix = "mediactl; fwd=stale; fwd-status=503; ttl="
        for path in ["/tagged/c.jpg?w=144", "/tagged/c.jpg?w=72"] {
            let variant = try world.get(path)
            #expect(variant.status == 200, "\(path)")
            let value = ttl(variant.header("Cache-Status"), prefix: prefix, suffix: "; stored; detail=stale-if-error")
            #expect(value.map { $0 <= 0 } == true, "\(path): \(variant.header("Cache-Status") ?? "none")")
        }
        let source = try world.get("/tagged/c.jpg")
        #expect(ttl(source.header("Cache-Status"), prefix: prefix, suffix: "; detail=stale-if-error").map { $0 <= 0 } == true,
                "\(source.header("Cache-Status") ?? "none")")
        #expect(world.origin.accessLog(prefix: "/tagged/c.jpg", count: 4).filter { $0.contains("status=503") }.count == 3)
        #expect(world.stop() == 0)
        let (result, report) = try world.audit()
        #expect(result.exitCode == 0, "\(result.stdout)\(result.stderr)")
        #expect(report?.clean == true)
    }
}
