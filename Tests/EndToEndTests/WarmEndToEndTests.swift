import Foundation
import Testing

/// `mediactl warm` (the built binary) against `mediactl serve` and the real nginx origin.
@Suite(.enabled(if: NginxOrigin.isAvailable, "nginx is installed by scripts/test"), .serialized)
struct WarmEndToEndTests {
    static let horse = "/catalog/horse-d29d871c.jpg"
    static let avatar = "/avatars/u1001.jpg"

    /// `mediactl warm --policies <policies> --state-dir <state> <list>` with `list` written to a file first.
    static func warm(_ world: ServeEnvironment, list: String, extra: [String] = []) throws -> MediactlProcess.CommandResult {
        let file = world.root.appendingPathComponent("warm-\(UUID().uuidString).txt")
        try list.write(to: file, atomically: true, encoding: .utf8)
        return try world.run(["warm", "--policies", world.policiesDirectory.path] + extra + [file.path])
    }

    /// The summary's first line without its duration (`N paths in X s: …` → `N paths: …`).
    static func counts(_ stdout: String) -> String {
        let first = stdout.split(separator: "\n").first.map(String.init) ?? ""
        return first.replacingOccurrences(of: #" in \d+\.\d s:"#, with: ":", options: .regularExpression)
    }

    @Test func warmFillsTheCacheAndTheNextRequestsAreHits() throws {
        let world = try ServeEnvironment()
        defer { world.tearDown() }
        try world.start()
        let list = "# warm the catalog\n\(Self.horse)\n\n\(Self.avatar)\n"

        let first = try Self.warm(world, list: list)
        #expect(first.exitCode == 0)
        #expect(first.stderr == "")
        #expect(Self.counts(first.stdout) == "2 paths: 2 stored, 0 refreshed, 0 already fresh, 0 not stored, 0 refused, 0 failed")
        #expect(first.stdout.split(separator: "\n").count == 1)
        // One origin request each, made by warm; the next client requests are hits.
        for path in [Self.horse, Self.avatar] {
            let answer = try world.get(path)
            #expect(answer.status == 200)
            #expect(answer.cacheStatus.hit, "\(path): \(answer.header("Cache-Status") ?? "-")")
            #expect(answer.body == Fixtures.bytes(String(path.dropFirst())))
        }
        #expect(world.origin.accessLog(prefix: Self.horse, count: 1).count == 1)

        let again = try Self.warm(world, list: list, extra: ["--concurrency", "2"])
        #expect(again.exitCode == 0)
        #expect(Self.counts(again.stdout) == "2 paths: 0 stored, 0 refreshed, 2 already fresh, 0 not stored, 0 refused, 0 failed")
    }

    @Test func partitionedPathIsRefusedBeforeAnythingIsSent() throws {
        let world = try ServeEnvironment()
        defer { world.tearDown() }
        try world.start()
        let result = try Self.warm(world, list: "\(Self.horse)\n/receipts/r-7731.png\n")
        #expect(result.exitCode == 2)
        #expect(result.stdout == "")
        #expect(result.stderr == """
            mediactl: line 2: /receipts/r-7731.png: route receipts (tier private) is partitioned per credential, and a warm list carries no credentials

            """)
        // Nothing was sent: the horse is still a miss.
        #expect(try world.get(Self.horse).cacheStatus.forward == "uri-miss")
    }

    @Test func missingPathExitsOneWithTheReason() throws {
        let world = try ServeEnvironment()
        defer { world.tearDown() }
        try world.start()
        let result = try Self.warm(world, list: "/catalog/missing.jpg\n\(Self.horse)\n")
        #expect(result.exitCode == 1)
        #expect(Self.counts(result.stdout) == "2 paths: 1 stored, 0 refreshed, 0 already fresh, 0 not stored, 1 refused, 0 failed")
        #expect(result.stdout.split(separator: "\n").dropFirst() == ["refused 404 origin-status-404: 1 (first: line 1, /catalog/missing.jpg)"])
    }
}
