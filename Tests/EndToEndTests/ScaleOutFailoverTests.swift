import Foundation
import MediaTestSupport
import Synchronization
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Three `mediactl serve` replicas behind the documented nginx front (`hash … consistent`,
/// `proxy_next_upstream error timeout http_502`, 2 tries) and a real nginx origin: one origin fetch per key
/// with every replica up; a replica SIGKILLed under a 64-connection load costs (almost) no failed request;
/// only its keys move (about a third); restarted on its state directory its audit is clean; `purge --replicas`
/// names the replica that is down and purges the others; a clean fleet audit at the end.
@Suite(.enabled(if: NginxOrigin.isAvailable, "nginx is installed by scripts/test"), .serialized)
struct ScaleOutFailoverTests {
    /// Keys used: distinct paths under `/many/`, each one object (the origin serves one catalog image for all).
    static let keys = (0..<240).map { "/many/k-\($0).jpg" }
    /// The failed requests tolerated while a replica dies under load (measured: 0; docs/scale-out.md).
    static let failedBound = 4

    @Test func failoverRemappingRestartPurgeAndFleetAudit() throws {
        let world = try ServeEnvironment(
            extraRoutes: [.init(name: "many", mount: "/many/", originPath: "/many/", tier: "public")],
            originServerConfig: """
                location /many/ {
                    rewrite ^ /catalog/coins-1fea11f1.jpg break;
                    add_header Cache-Control "public, max-age=31536000, immutable";
                }
                """)
        defer { world.tearDown() }
        let states = (1...3).map { world.root.appendingPathComponent("state-\($0)") }
        var replicas = try states.map { try MediactlProcess(policiesDirectory: world.policiesDirectory, stateDirectory: $0) }
        defer { replicas.forEach { $0.cleanUp() } }
        let ports = replicas.map(\.port)
        let front = try ScaleOutFront(
            replicaPorts: ports, extraServerConfig: "        add_header X-Upstream $upstream_addr always;")
        defer { front.stop() }
        #expect(try front.test().status == 0)
        try front.start()

        // 1. Every replica up: each key is stored on one replica, fetched from the origin once.
        let before = Self.servingReplicas(front: front, ports: ports, concurrency: 16)
        #expect(before.compactMap { $0 }.count == Self.keys.count, "every key answered 200 by one replica")
        let perReplica = ports.map { port in before.filter { $0 == port }.count }
        #expect(perReplica.allSatisfy { $0 >= Self.keys.count / 6 }, "ring spreads the keys: \(perReplica)")
        #expect(world.origin.accessLog(prefix: "/many/", count: Self.keys.count).count == Self.keys.count)

        // 2. SIGKILL one replica while 64 connections load the front for ~1.5 s.
        let victim = 1
        let victimProcess = replicas[victim]
        let load = Self.load(front: front, connections: 64, seconds: 1.5, killAfter: 0.5) { victimProcess.kill() }
        print("scale-out failover: \(load.requests) requests, \(load.failed) failed, during a SIGKILL under 64 connections")
        #expect(load.requests >= 200, "the load ran: \(load.requests)")
        #expect(load.failed <= Self.failedBound, "failed in-flight requests: \(load.failed) of \(load.requests)")

        // 3. Only the dead replica's keys moved; about a third of them.
        let after = Self.servingReplicas(front: front, ports: ports, concurrency: 16)
        var moved = 0
        for (index, key) in Self.keys.enumerated() {
            guard let was = before[index], let now = after[index] else {
                Issue.record("\(key) not answered")
                continue
            }
            if was == ports[victim] {
                #expect(now != ports[victim], "\(key) still on the dead replica")
                moved += 1
            } else {
                #expect(now == was, "\(key) moved from a live replica \(was) to \(now)")
            }
        }
        let movedShare = Double(moved) / Double(Self.keys.count)
        print("scale-out remapping: \(moved) of \(Self.keys.count) keys moved (\(Int(movedShare * 100)) %)")
        #expect(movedShare >= 0.15 && movedShare <= 0.55, "moved \(moved) of \(Self.keys.count)")

        // 4. Purge fan-out with the dead replica down: exit 1 naming it; the live ones purged and audited.
        let fleetFile = world.root.appendingPathComponent("replicas.txt")
        func writeFleetFile() throws {
            let lines = zip(replicas, states).map { "http://127.0.0.1:\($0.adminPort) \($1.path)" }
            try ("# the test's fleet\n" + lines.joined(separator: "\n") + "\n").write(to: fleetFile, atomically: true, encoding: .utf8)
        }
        try writeFleetFile()
        let deadURL = "http://127.0.0.1:\(replicas[victim].adminPort)"
        let partial = try MediactlProcess.run(["purge", "--route", "many", "--replicas", fleetFile.path])
        #expect(partial.exitCode == 1, "\(partial.stdout)\(partial.stderr)")
        let partialLines = partial.stdout.split(separator: "\n").map(String.init)
        #expect(partialLines.count == 4)
        #expect(partialLines[victim] == "\(deadURL): failed")
        #expect(partialLines.last?.hasPrefix("total: purged ") == true)
        #expect(partialLines.last?.hasSuffix(" on 2 of 3 replicas") == true)
        #expect(partial.stderr.contains("mediactl: \(deadURL): cannot connect after 3 attempts: "))
        #expect(partial.stderr.hasSuffix("mediactl: purge failed on 1 of 3 replicas: \(deadURL)\n"))
        for index in ports.indices where index != victim {
            #expect(partialLines[index].hasPrefix("http://127.0.0.1:\(replicas[index].adminPort): purged "))
            let records = AuditLine.read(directory: states[index].appendingPathComponent("audit"))
            #expect(records.contains { $0.event == "purge" && $0.reason == "purge-route" && $0.route == "many" })
        }

        // 5. Restart the killed replica on its state directory (same port: the same place on the ring).
        replicas[victim].cleanUp()
        replicas[victim] = try MediactlProcess(
            policiesDirectory: world.policiesDirectory, stateDirectory: states[victim], port: ports[victim])
        let verify = try MediactlProcess.run(["audit", "verify", "--state-dir", states[victim].path])
        #expect(verify.exitCode == 0, "\(verify.stdout)\(verify.stderr)")
        let restartedAudit = try MediactlProcess.run(
            ["audit", "--state-dir", states[victim].path, "--policies", world.policiesDirectory.path])
        #expect(restartedAudit.exitCode == 0, "\(restartedAudit.stdout)\(restartedAudit.stderr)")

        // 6. Purge fan-out with every replica up: exit 0, a line per replica and the total; purge records everywhere.
        try writeFleetFile()
        let full = try MediactlProcess.run(["purge", "--all", "--replicas", fleetFile.path])
        #expect(full.exitCode == 0, "\(full.stdout)\(full.stderr)")
        #expect(full.stderr == "")
        let fullLines = full.stdout.split(separator: "\n").map(String.init)
        #expect(fullLines.count == 4)
        var sum = 0
        for index in ports.indices {
            let prefix = "http://127.0.0.1:\(replicas[index].adminPort): purged "
            #expect(fullLines[index].hasPrefix(prefix), "\(fullLines[index])")
            sum += Int(fullLines[index].dropFirst(prefix.count).split(separator: " ").first ?? "") ?? -1_000_000
            let records = AuditLine.read(directory: states[index].appendingPathComponent("audit"))
            #expect(records.contains { $0.event == "purge" && $0.reason == "purge-all" }, "replica \(index + 1)")
        }
        #expect(sum > 0, "the restarted replica's disk objects and the load's stores were purged")
        #expect(fullLines.last == "total: purged \(sum) \(sum == 1 ? "entry" : "entries") on 3 of 3 replicas")

        // 7. A clean fleet audit after a graceful stop of all three.
        for replica in replicas { #expect(replica.terminate() == 0) }
        let fleet = try MediactlProcess.run(
            ["audit", "--policies", world.policiesDirectory.path] + states.flatMap { ["--state-dir", $0.path] })
        #expect(fleet.exitCode == 0, "\(fleet.stdout)\(fleet.stderr)")
        #expect(fleet.stdout.hasSuffix("fleet clean: no violations in 3 replicas\n"))
        #expect(fleet.stdout.contains("fleet: 3 replicas, "))
        #expect(fleet.stdout.contains("chains intact 3 of 3"))
    }

    /// GETs every key through the front (`concurrency` threads); the port of the replica that answered each
    /// (the last address of `X-Upstream`), or `nil` when the answer was not a 200.
    static func servingReplicas(front: ScaleOutFront, ports: [Int], concurrency: Int) -> [Int?] {
        let answers = ConcurrentRequests.run(count: concurrency) { worker -> [(Int, Int?)] in
            stride(from: worker, to: keys.count, by: concurrency).map { index in
                guard let response = try? RawHTTP.get(port: front.port, keys[index]), response.status == 200,
                    let upstream = response.header("X-Upstream")
                else { return (index, nil) }
                let last = upstream.split(separator: ",").last?.trimmingCharacters(in: .whitespaces) ?? ""
                return (index, Int(last.split(separator: ":").last ?? ""))
            }
        }
        var result = [Int?](repeating: nil, count: keys.count)
        for case let list? in answers { for (index, port) in list { result[index] = port } }
        return result
    }

    struct LoadResult {
        var requests: Int
        var failed: Int
    }

    /// `connections` threads GET distinct keys through the front (each its own connection per request)
    /// for `seconds`; `kill` runs once after `killAfter` seconds. Failed: not a 200 with the expected length.
    static func load(
        front: ScaleOutFront, connections: Int, seconds: Double, killAfter: Double, kill: @escaping @Sendable () -> Void
    ) -> LoadResult {
        let expectedBytes = Fixtures.bytes("catalog/coins-1fea11f1.jpg").count
        let start = Date()
        let killer = Thread {
            usleep(UInt32(killAfter * 1_000_000))
            kill()
        }
        killer.start()
        let counts = ConcurrentRequests.run(count: connections) { worker -> (Int, Int) in
            var requests = 0
            var failed = 0
            var index = worker * 7
            while Date().timeIntervalSince(start) < seconds {
                index = (index + 13) % keys.count
                requests += 1
                let response = try? RawHTTP.get(port: front.port, keys[index])
                if response?.status != 200 || response?.body.count != expectedBytes { failed += 1 }
            }
            return (requests, failed)
        }
        while Date().timeIntervalSince(start) < killAfter + 0.1 { usleep(10_000) }
        let done = counts.compactMap { $0 }
        return LoadResult(requests: done.map(\.0).reduce(0, +), failed: done.map(\.1).reduce(0, +))
    }
}
