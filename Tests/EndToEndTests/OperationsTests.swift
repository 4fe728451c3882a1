import Foundation
import MediaTestSupport
import Synchronization
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// docs/operations.md with the built binary: the admin listener, `mediactl purge` through serve.json, and policy
/// reloads (SIGHUP, `mediactl reload`) under load.
@Suite(.serialized) struct OperationsTests {
    static let horse = "/catalog/horse-d29d871c.jpg"

    /// The public port answers 404 for `/_mediactl/*`, the admin listener (from serve.json) answers, and
    /// `mediactl purge` reaches it through serve.json.
    @Test func adminEndpointsAreOnTheAdminListenerOnly() throws {
        let world = try ServeEnvironment()
        defer { world.tearDown() }
        try world.start()
        let info = try #require(world.serve?.serveInfo)
        #expect(info.admin == "127.0.0.1:\(world.adminPort)")
        #expect(world.adminPort != 0 && world.adminPort != world.port)
        for target in ["/_mediactl/metrics", "/_mediactl/health", "/_mediactl/purge", "/_mediactl/admin/reload"] {
            let refused = try world.get(target)
            #expect(refused.status == 404, "\(target)")
            #expect(refused.header("Content-Type") == "application/problem+json")
            #expect(refused.text == "{\"code\":\"no-route\",\"detail\":\"/_mediactl/ is answered on the admin listener only "
                + "(serve --admin-listen)\",\"status\":404,\"title\":\"Not Found\",\"type\":\"https://mediactl.dev/problems/no-route\"}")
        }
        let metrics = try world.admin("/_mediactl/metrics")
        #expect(metrics.status == 200)
        #expect(metrics.text.contains("\nmediactl_policy_reloads_total{result=\"ok\"} 0\n"))
        #expect(try world.admin("/_mediactl/health").status == 200)
        #expect(try world.admin(Self.horse).status == 404)
        // Purge needs the admin token; mediactl purge has it from serve.json.
        let anonymous = try RawHTTP.request(port: world.adminPort, "POST", "/_mediactl/purge", headers: [("Content-Length", "0")])
        #expect(anonymous.status == 401)
        #expect(try world.get(Self.horse).cacheStatus.stored)
        let purge = try world.run(["purge", "--route", "catalog"])
        #expect(purge.exitCode == 0)
        #expect(purge.stdout == "purged 1 entry\n")
        #expect(world.stop() == 0)
    }

    /// A non-loopback admin address is served, with a warning on stderr.
    @Test func aNonLoopbackAdminListenerWarns() throws {
        let world = try ServeEnvironment()
        defer { world.tearDown() }
        let serve = try MediactlProcess(policiesDirectory: world.policiesDirectory, stateDirectory: world.stateDirectory,
                                        adminListen: "0.0.0.0:0")
        defer { serve.cleanUp() }
        #expect(serve.adminPort != 0)
        #expect(try RawHTTP.get(port: serve.adminPort, "/_mediactl/health").status == 200)
        #expect(serve.stderr == "mediactl: warning: the admin listener 0.0.0.0:\(serve.adminPort) is not a loopback address: "
            + "/_mediactl/health, /_mediactl/ready and /_mediactl/metrics are reachable from the network (purge and reload still require the admin token)\n")
    }

    /// 64 keep-alive connections hammer the service while a SIGHUP adds a route: the route answers under the same
    /// pid, every request of the load is answered 200 on its own connection (none dropped). Then a broken file:
    /// `mediactl reload` exits 1 naming it, and the set in force keeps serving.
    @Test func sighupAddsARouteUnderLoadAndABrokenFileKeepsTheSetInForce() throws {
        let world = try ServeEnvironment()
        defer { world.tearDown() }
        try world.start()
        let serve = try #require(world.serve)
        let pid = serve.pid
        #expect(try world.get(Self.horse).status == 200)
        #expect(try world.get("/extra/horse-d29d871c.jpg").status == 404)

        let load = KeepAliveLoad(port: world.port, target: Self.horse, connections: 64)
        load.start()
        #expect(load.waitUntil { $0.allSatisfy { $0 > 0 } }, "every connection answered once")

        let policy = ServeEnvironment.policyJSON(
            originBase: world.origin.baseURL,
            routes: ServeEnvironment.defaultRoutes + [.init(name: "extra", mount: "/extra/", originPath: "/catalog/", tier: "public")])
        let file = world.policiesDirectory.appendingPathComponent("e2e.json")
        try policy.write(to: file, atomically: true, encoding: .utf8)
        #expect(kill(pid, SIGHUP) == 0)
        let deadline = Date().addingTimeInterval(20)
        var added = try world.get("/extra/horse-d29d871c.jpg")
        while added.status != 200 && Date() < deadline {
            usleep(5_000)
            added = try world.get("/extra/horse-d29d871c.jpg")
        }
        #expect(added.status == 200)
        // Every connection answers again after the reload, still on the connection it opened before it.
        let afterReload = load.counts
        #expect(load.waitUntil { counts in zip(counts, afterReload).allSatisfy { $0 > $1 } }, "every connection answered after the reload")
        let result = load.stop()
        #expect(result.failures == [], "requests that failed or connections that closed")
        #expect(result.answered >= 128)
        #expect(serve.isRunning)
        #expect(serve.serveInfo?.pid == pid)
        #expect(serve.stderr.contains("mediactl: SIGHUP: policies reloaded (sha256 "))
        #expect(serve.stderr.contains("; 6 routes, 4 tiers; 0 stored responses removed)\n"))

        // A broken file: refused, named, and the set in force keeps serving.
        let broken = world.policiesDirectory.appendingPathComponent("zz-broken.json")
        try "{ \"tiers\": { \"t\": { \"storage\": \"disc\" } }, \"routes\": [] }".write(to: broken, atomically: true, encoding: .utf8)
        let refused = try world.run(["reload"])
        #expect(refused.exitCode == 1)
        #expect(refused.stdout == "")
        #expect(refused.stderr.hasPrefix("mediactl: \(broken.path): tiers.t.storage: \"disc\" is not allowed (did you mean `disk`?); "
            + "allowed: disk, encrypted-disk, memory, none\n"))
        #expect(refused.stderr.contains("mediactl: reload failed: "))
        #expect(refused.stderr.hasSuffix("; the policies in force stay (sha256 \(try Self.digestInForce(world)))\n"))
        #expect(try world.get("/extra/horse-d29d871c.jpg").status == 200)
        #expect(try world.get(Self.horse).status == 200)
        let metrics = try world.admin("/_mediactl/metrics").text
        #expect(metrics.contains("\nmediactl_policy_reloads_total{result=\"ok\"} 1\nmediactl_policy_reloads_total{result=\"failed\"} 1\n"))
        // Fixed again: `mediactl reload` puts it in force and says so.
        try FileManager.default.removeItem(at: broken)
        let fixed = try world.run(["reload"])
        #expect(fixed.exitCode == 0)
        #expect(fixed.stdout.hasPrefix("reloaded: sha256 "))
        #expect(fixed.stdout.hasSuffix(" (6 routes, 4 tiers; 0 stored responses removed)\n"))
        #expect(serve.pid == pid)

        #expect(world.stop() == 0)
        // The log names every set put in force: at start, at the SIGHUP, at the reload.
        let summaries = world.auditRecords.filter { $0.event == "policy" && $0.tier == nil }
        #expect(summaries.map(\.reason) == ["policy-loaded", "policy-reloaded", "policy-reloaded"])
        #expect(try world.auditVerify().exitCode == 0)
        let (audit, report) = try world.audit()
        #expect(audit.exitCode == 0, "\(audit.stdout)")
        #expect(report?.violations.isEmpty == true)
    }

    /// A reload that narrows the public tier to memory removes its disk objects (files included), audited, and
    /// `mediactl audit` stays clean: the earlier stores are judged by the policy in force when they were written.
    @Test func aNarrowingReloadRemovesTheFilesAndTheAuditStaysClean() throws {
        let world = try ServeEnvironment()
        defer { world.tearDown() }
        try world.start()
        #expect(try world.get(Self.horse).cacheStatus.stored)
        try world.settle()
        let diskFolder = world.stateDirectory.appendingPathComponent("disk/public")
        #expect(StateScan.files(under: diskFolder).count == 1)
        let narrowed = ServeEnvironment.policyJSON(originBase: world.origin.baseURL, routes: ServeEnvironment.defaultRoutes)
            .replacingOccurrences(of: "\"public\":  { \"storage\": \"disk\"", with: "\"public\":  { \"storage\": \"memory\"")
        try narrowed.write(to: world.policiesDirectory.appendingPathComponent("e2e.json"), atomically: true, encoding: .utf8)
        let reloaded = try world.run(["reload"])
        #expect(reloaded.exitCode == 0)
        #expect(reloaded.stdout.hasSuffix(" (5 routes, 4 tiers; 1 stored response removed)\n"))
        #expect(StateScan.files(under: diskFolder).isEmpty)
        #expect(try world.get(Self.horse).header("Cache-Status")?.hasSuffix("stored; detail=memory") == true)
        #expect(world.stop() == 0)
        let purges = world.auditRecords.filter { $0.event == "purge" }
        #expect(purges.map(\.reason) == ["policy-tier-changed", "policy-tier-changed"])
        // Judged by the policy in force when stored (disk allowed then), against the files now (none): clean,
        // although the policies given now allow public only memory.
        let (audit, report) = try world.audit()
        #expect(audit.exitCode == 0, "\(audit.stdout)")
        #expect(report?.violations.isEmpty == true)
    }

    /// The `sha256` of `mediactl_policy_info` on the admin listener.
    static func digestInForce(_ world: ServeEnvironment) throws -> String {
        let line = try #require(try world.admin("/_mediactl/metrics").text.split(separator: "\n")
            .first { $0.hasPrefix("mediactl_policy_info{sha256=\"") })
        return String(line.dropFirst("mediactl_policy_info{sha256=\"".count).prefix(64))
    }
}

/// `connections` threads, each with one keep-alive connection sending `GET target` back to back until
/// ``stop()``; a failure is an answer other than 200, or an error (a dropped connection included).
final class KeepAliveLoad: @unchecked Sendable {
    let port: Int
    let target: String
    let connections: Int
    private let answered: Mutex<[Int]>
    private let failed = Mutex<[String]>([])
    private let stopping = Atomic<Bool>(false)
    private let group = DispatchGroup()

    init(port: Int, target: String, connections: Int) {
        self.port = port
        self.target = target
        self.connections = connections
        answered = Mutex(Array(repeating: 0, count: connections))
    }

    /// Answers so far, per connection.
    var counts: [Int] { answered.withLock { $0 } }

    func start() {
        for index in 0..<connections {
            group.enter()
            let thread = Thread { [self] in
                defer { group.leave() }
                run(index)
            }
            thread.stackSize = 1 << 20
            thread.start()
        }
    }

    private func run(_ index: Int) {
        let request = Array("GET \(target) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n".utf8)
        let fd: Int32
        do {
            fd = try RawHTTP.connect(port: port, timeoutSeconds: 20)
        } catch {
            failed.withLock { $0.append("connection \(index): \(error)") }
            return
        }
        defer { close(fd) }
        var buffer: [UInt8] = []
        while !stopping.load(ordering: .relaxed) {
            do {
                try RawHTTP.write(fd, request)
                let response = try RawHTTP.readResponse(fd, isHead: false, buffer: &buffer)
                guard response.status == 200, response.header("Connection")?.lowercased() != "close" else {
                    failed.withLock { $0.append("connection \(index): status \(response.status), Connection \(response.header("Connection") ?? "-")") }
                    return
                }
                answered.withLock { $0[index] += 1 }
            } catch {
                failed.withLock { $0.append("connection \(index): \(error)") }
                return
            }
        }
    }

    /// Polls (every 2 ms, at most 20 s) until `condition` holds for the per-connection counts.
    func waitUntil(_ condition: ([Int]) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline {
            if condition(counts) { return true }
            if !failed.withLock({ $0.isEmpty }) { return false }
            usleep(2_000)
        }
        return condition(counts)
    }

    /// Stops every connection and returns the total answered and every failure.
    func stop() -> (answered: Int, failures: [String]) {
        stopping.store(true, ordering: .relaxed)
        group.wait()
        return (counts.reduce(0, +), failed.withLock { $0 })
    }
}
