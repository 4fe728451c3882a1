import Foundation
import HTTPServer
import MediaAudit
import MediaCurl
import MediaPolicy
import MediaService
import MediaTestSupport
import Synchronization
import Testing

@testable import MediaCTL
@testable import MediaServer

#if canImport(Glibc)
    import Glibc
#endif

/// `mediactl serve` in-process: a real origin (the demo's), real sockets, the stop signal replaced by
/// a gate (no process-wide signal handler in the shared test process).
@Suite(.serialized) struct ServeCommandTests {
    /// A running in-process serve.
    struct Running {
        let task: Task<ExitCode, Never>
        let gate: Gate
        let stdout: CapturedOutput
        let stderr: CapturedOutput
        let port: Int
        let adminPort: Int
        var base: String { "http://127.0.0.1:\(port)" }
        var admin: String { "http://127.0.0.1:\(adminPort)" }

        func stop(_ reason: String = "SIGTERM") async -> ExitCode {
            gate.open(reason)
            return await task.value
        }
    }

    static func start(
        policies: String, state: String, admin: ServeCommand.AdminFactory? = nil,
        sweepInterval: Duration = .seconds(60),
        service: @escaping @Sendable (inout MediaService.Configuration) -> Void = { _ in }
    ) async throws -> Running {
        let gate = Gate()
        let out = CapturedOutput()
        let err = CapturedOutput()
        let context = CommandContext(stdout: out, stderr: err, environment: [:])
        let options = ServeCommand(
            listen: ListenAddress(host: "127.0.0.1", port: 0), adminListen: ListenAddress(host: "127.0.0.1", port: 0),
            policiesDirectory: policies, stateDirectory: state)
        let configuration = ServeCommand.Configuration(
            sweepInterval: sweepInterval, admin: admin, until: { await gate.wait() }, service: service)
        let task = Task { await options.run(context: context, configuration: configuration) }
        let started = await eventually { out.text.contains("admin on") || !err.text.isEmpty }
        try #require(started && err.text.isEmpty, "serve did not start: \(err.text)")
        let text = out.text
        let portText = text.split(separator: ":")[3].prefix { $0.isNumber }
        let adminLine = try #require(text.split(separator: "\n").first { $0.hasPrefix("mediactl: admin on http://127.0.0.1:") })
        let adminText = adminLine.dropFirst("mediactl: admin on http://127.0.0.1:".count).prefix { $0.isNumber }
        return Running(task: task, gate: gate, stdout: out, stderr: err, port: Int(portText)!, adminPort: Int(adminText)!)
    }

    @Test func servesHitsHealthMetricsThenStopsCleanly() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let origin = try TestOrigin(addsDateField: false)
        let policies = try origin.writePolicies(in: directory)
        let state = directory.path + "/state"
        let now = Date().timeIntervalSince1970.rounded(.down)
        let serving = try await Self.start(policies: policies, state: state, service: { $0.clock = { now } })

        #expect(
            serving.stdout.text
                == "mediactl: serving on http://127.0.0.1:\(serving.port) (state: \(state), policies: \(policies))\n"
                + "mediactl: admin on http://127.0.0.1:\(serving.adminPort)\n")
        let file = try #require(try ServeStateFile.read(stateDirectory: state))
        #expect(file.pid == getpid())
        #expect(file.listen == "127.0.0.1:\(serving.port)")
        #expect(file.admin == "127.0.0.1:\(serving.adminPort)")
        #expect(file.adminToken.count == 64 && file.adminToken.allSatisfy(\.isHexDigit))
        let attributes = try FileManager.default.attributesOfItem(atPath: state + "/serve.json")
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)

        let path = "/catalog/coffee-237a7131.jpg"
        let bytes = try #require(origin.origin.files[path]?.bytes)
        let first = try await HTTPGet.fetch(serving.base + path)
        #expect(first.status == 200)
        #expect(first.header("Cache-Status") == "mediactl; fwd=uri-miss; fwd-status=200; ttl=31536000; stored; detail=disk")
        #expect(first.header("Cache-Control") == "public, max-age=31536000, immutable")
        #expect(first.header("Content-Type") == "image/jpeg")
        #expect(first.header("X-Content-Type-Options") == "nosniff")
        #expect(first.body == bytes)
        let second = try await HTTPGet.fetch(serving.base + path)
        #expect(second.status == 200)
        #expect(second.header("Cache-Status") == "mediactl; hit; ttl=31536000")
        #expect(second.body == bytes)
        let head = try await HTTPGet.fetch(serving.base + path, method: "HEAD")
        #expect(head.status == 200)
        #expect(head.body.isEmpty)
        #expect(head.header("Content-Length") == String(bytes.count))
        #expect(origin.origin.requestCount == 1)

        // The public port answers 404 for the admin paths; the admin listener answers them.
        for path in ["/_mediactl/health", "/_mediactl/ready", "/_mediactl/metrics", "/_mediactl/purge"] {
            let refused = try await HTTPGet.fetch(serving.base + path)
            #expect(refused.status == 404)
            #expect(refused.header("Content-Type") == "application/problem+json")
        }
        let health = try await HTTPGet.fetch(serving.admin + "/_mediactl/health")
        #expect(health.status == 200)
        #expect(health.header("Content-Type") == "application/json")
        #expect(
            String(decoding: health.body, as: UTF8.self)
                == "{\"routes\":[\"catalog\",\"large\",\"avatars\",\"uploads\",\"receipts\",\"one-time\"],\"status\":\"ok\",\"tiers\":[\"avatar\",\"no-store\",\"private\",\"public\"]}\n"
        )
        let ready = try await HTTPGet.fetch(serving.admin + "/_mediactl/ready")
        #expect(ready.status == 200)
        #expect(ready.header("Content-Type") == "application/json")
        #expect(String(decoding: ready.body, as: UTF8.self) == "{\"audit\":\"ok\",\"diskSpace\":\"ok\",\"policies\":\"ok\",\"status\":\"ready\"}\n")
        let metrics = try await HTTPGet.fetch(serving.admin + "/_mediactl/metrics")
        #expect(metrics.status == 200)
        #expect(metrics.header("Content-Type") == "text/plain; version=0.0.4; charset=utf-8")
        let lines = String(decoding: metrics.body, as: UTF8.self).split(separator: "\n").map(String.init)
        #expect(lines.contains("mediactl_hits_total{tier=\"public\"} 2"))
        #expect(lines.contains("mediactl_stored_total{tier=\"public\"} 1"))
        #expect(lines.contains("mediactl_misses_total{tier=\"public\"} 1"))
        #expect(lines.contains("# TYPE mediactl_http_requests_total counter"))
        // The public listener's requests: two GETs and a HEAD (plus the four 404s), none of the admin listener's.
        #expect(lines.contains("mediactl_http_requests_total 7"))
        #expect(lines.contains("mediactl_policy_reloads_total{result=\"ok\"} 0"))
        #expect(lines.contains("mediactl_http_parse_errors_total 0"))
        #expect(metrics.header("Content-Length") == String(metrics.body.count))

        let purge = try await HTTPGet.fetch(serving.admin + "/_mediactl/purge", method: "POST")
        #expect(purge.status == 404)
        #expect(purge.header("Content-Type") == "application/problem+json")
        #expect(
            String(decoding: purge.body, as: UTF8.self)
                == "{\"code\":\"no-route\",\"detail\":\"no admin endpoint at /_mediactl/purge in this server\",\"status\":404,\"title\":\"Not Found\",\"type\":\"https://mediactl.dev/problems/no-route\"}"
        )

        #expect(await serving.stop() == .success)
        #expect(serving.stderr.text == "mediactl: SIGTERM: stopped after draining in-flight requests\n")
        #expect(try ServeStateFile.read(stateDirectory: state) == nil)
        #expect(!FileManager.default.fileExists(atPath: state + "/serve.json"))
        let records = try AuditReader.records(directory: state + "/audit")
        #expect(records.map(\.event).filter({ $0 != .policy }) == [.start, .store, .stop])
        #expect(try AuditVerifier.verify(stateDirectory: state).failure == nil)
        await origin.stop()
    }

    @Test func adminEndpointGetsThePurgeRequestsAndTheToken() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let origin = try TestOrigin()
        let policies = try origin.writePolicies(in: directory)
        let state = directory.path + "/state"
        let seenToken = Mutex<String?>(nil)
        let serving = try await Self.start(policies: policies, state: state) { _, token in
            seenToken.withLock { $0 = token }
            return { request in
                let authorized = request.field("Authorization") == "Bearer " + token
                return HTTPServerResponse(status: authorized ? 200 : 401, body: Array("purged\n".utf8))
            }
        }
        let token = try #require(try ServeStateFile.read(stateDirectory: state)?.adminToken)
        #expect(seenToken.withLock { $0 } == token)
        let refused = try await HTTPGet.fetch(serving.admin + "/_mediactl/purge?route=catalog", method: "POST")
        #expect(refused.status == 401)
        let accepted = try await HTTPGet.fetch(
            serving.admin + "/_mediactl/purge?route=catalog", method: "POST",
            headers: ["Authorization": "Bearer " + token])
        #expect(accepted.status == 200)
        #expect(String(decoding: accepted.body, as: UTF8.self) == "purged\n")
        // GET on the purge path is 405 with Allow: POST (docs/operations.md, "Admin endpoints").
        let get = try await HTTPGet.fetch(serving.admin + "/_mediactl/purge")
        #expect(get.status == 405)
        #expect(await serving.stop("SIGINT") == .success)
        #expect(serving.stderr.text == "mediactl: SIGINT: stopped after draining in-flight requests\n")
        await origin.stop()
    }

    /// `mediactl reload` against an in-process serve: an added route answers after the reload; a broken file is
    /// refused with the problems `policy check` prints, exit 1, and the set in force keeps serving; each
    /// reload is counted and the audit log names every set put in force.
    @Test func reloadPutsANewSetInForceAndRefusesABrokenOne() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let origin = try TestOrigin()
        let policies = try origin.writePolicies(in: directory)
        let state = directory.path + "/state"
        let serving = try await Self.start(policies: policies, state: state)
        let before = try #require(try ServeStateFile.read(stateDirectory: state))
        #expect(try await HTTPGet.fetch(serving.base + "/extra/coffee-237a7131.jpg").status == 404)

        let extra = policies + "/z-extra.json"
        try Data("{ \"routes\": [ { \"name\": \"extra\", \"mount\": \"/extra/\", \"origin\": \"\(origin.base)/catalog/\", \"tier\": \"public\" } ] }".utf8)
            .write(to: URL(fileURLWithPath: extra))
        let reloaded = await CLIRun.run(["reload", "--state-dir", state])
        let digest = try #require(serving.stderr.text.split(separator: " ").first { $0.count == 64 + 1 && $0.hasSuffix(";") }).dropLast()
        #expect(reloaded == CLIRun(status: 0, stdout: "reloaded: sha256 \(digest) (7 routes, 4 tiers; 0 stored responses removed)\n", stderr: ""))
        #expect(serving.stderr.text == "mediactl: admin request: policies reloaded (sha256 \(digest); 7 routes, 4 tiers; 0 stored responses removed)\n")
        let added = try await HTTPGet.fetch(serving.base + "/extra/coffee-237a7131.jpg")
        #expect(added.status == 200)
        #expect(added.header("Cache-Status")?.hasSuffix("stored; detail=disk") == true)

        try Data("{ \"tiers\": { \"t\": { \"storage\": \"disc\" } }, \"routes\": [] }".utf8).write(to: URL(fileURLWithPath: extra))
        let problems: [String]
        do {
            _ = try PolicyLoader().load(directory: policies)
            Issue.record("the policy should be invalid")
            return
        } catch {
            problems = error.errors.map(\.description)
        }
        let count = problems.count
        let refused = await CLIRun.run(["reload", "--state-dir", state])
        let summary = "reload failed: \(count) problem\(count == 1 ? "" : "s") in \(policies); the policies in force stay (sha256 \(digest))"
        #expect(refused == CLIRun(status: 1, stdout: "", stderr: (problems + [summary]).map { "mediactl: \($0)\n" }.joined()))
        #expect(serving.stderr.text.hasSuffix((problems + ["admin request: " + summary]).map { "mediactl: \($0)\n" }.joined()))
        // The set in force still serves the added route, and the old ones.
        #expect(try await HTTPGet.fetch(serving.base + "/extra/coffee-237a7131.jpg").header("Cache-Status")?.hasPrefix("mediactl; hit") == true)
        #expect(try await HTTPGet.fetch(serving.base + "/catalog/spinner.gif").status == 200)
        let metrics = String(decoding: try await HTTPGet.fetch(serving.admin + "/_mediactl/metrics").body, as: UTF8.self)
        #expect(metrics.contains("\nmediactl_policy_reloads_total{result=\"ok\"} 1\nmediactl_policy_reloads_total{result=\"failed\"} 1\n"))
        #expect(metrics.contains("\nmediactl_policy_info{sha256=\"\(digest)\"} 1\n"))
        // Same pid and serve.json throughout.
        #expect(try ServeStateFile.read(stateDirectory: state) == before)
        #expect(await serving.stop() == .success)
        let summaries = try AuditReader.records(directory: state + "/audit").filter { $0.event == .policy && $0.tier == nil }
        #expect(summaries.map { $0.reason?.rawValue } == ["policy-loaded", "policy-reloaded"])
        #expect(summaries.last?.key?.hex == String(digest))
        #expect(summaries.map(\.count) == [4, 4])
        await origin.stop()
    }

    @Test func unknownOriginRouteExits2NamingTheKnownRoutes() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let origin = try TestOrigin()
        let policies = try origin.writePolicies(in: directory)
        let state = directory.path + "/state"
        let run = await CLIRun.run(
            ["serve", "--origin", "catalgo=http://127.0.0.1:9/catalog/", "--policies", policies, "--state-dir", state])
        #expect(
            run
                == CLIRun(
                    status: 2, stdout: "",
                    stderr:
                        "mediactl: --origin: catalgo: unknown route (did you mean `catalog`?); allowed: avatars, catalog, large, one-time, receipts, uploads\n"
                ))
        #expect(!FileManager.default.fileExists(atPath: state))
        await origin.stop()
    }

    @Test func invalidOriginURLExits2() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let origin = try TestOrigin()
        let policies = try origin.writePolicies(in: directory)
        let run = await CLIRun.run(
            ["serve", "--origin", "catalog=http://127.0.0.1:9/catalog?x=1", "--policies", policies])
        #expect(run.status == 2)
        #expect(run.stderr.hasPrefix("mediactl: --origin: catalog: \"http://127.0.0.1:9/catalog?x=1\" "))
        await origin.stop()
    }

    @Test func unreadablePoliciesExit2WithTheirDescription() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let missing = directory.path + "/missing"
        let run = await CLIRun.run(["serve", "--policies", missing])
        #expect(
            run
                == CLIRun(
                    status: 2, stdout: "",
                    stderr:
                        "mediactl: \(missing): does not exist; allowed: a readable directory of *.json policy files\n"
                ))
    }

    @Test func everyPolicyProblemIsPrintedOnItsOwnLine() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let policies = directory.path + "/Policies"
        try FileManager.default.createDirectory(atPath: policies, withIntermediateDirectories: false)
        try Data("{ \"tiers\": { \"t\": { \"storage\": \"disc\", \"maxTTL\": -1 } }, \"routes\": [] }".utf8)
            .write(to: URL(fileURLWithPath: policies + "/a.json"))
        let expected: PolicyErrorList
        do {
            _ = try PolicyLoader().load(directory: policies)
            Issue.record("the policy should be invalid")
            return
        } catch {
            expected = error
        }
        #expect(expected.errors.count >= 2)
        let run = await CLIRun.run(["serve", "--policies", policies])
        #expect(run.status == 2)
        #expect(run.stdout == "")
        #expect(run.stderr == expected.errors.map { "mediactl: \($0.description)\n" }.joined())
    }

    /// Both ports in use, one at a time: exit 2 naming the flag, found before the state directory is opened (no audit
    /// log, so no start/policy/stop records of a start that failed), nothing on stdout, no serve.json.
    @Test(arguments: ["--listen", "--admin-listen"])
    func portInUseExits2BeforeOpeningTheState(_ flag: String) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let origin = try TestOrigin()
        let policies = try origin.writePolicies(in: directory)
        let state = directory.path + "/state"
        let out = CapturedOutput()
        let err = CapturedOutput()
        let taken = ListenAddress(host: "127.0.0.1", port: UInt16(origin.port))
        let free = ListenAddress(host: "127.0.0.1", port: 0)
        let options = ServeCommand(
            listen: flag == "--listen" ? taken : free, adminListen: flag == "--listen" ? free : taken,
            policiesDirectory: policies, stateDirectory: state)
        let status = await options.run(
            context: CommandContext(stdout: out, stderr: err, environment: [:]), configuration: .init(until: { "never" }))
        #expect(status == .unusableInput)
        #expect(out.text == "")
        #expect(err.text == "mediactl: cannot listen on 127.0.0.1:\(origin.port) (\(flag)): Address already in use (errno 98)\n")
        #expect(!FileManager.default.fileExists(atPath: state + "/audit"))
        #expect(try ServeStateFile.read(stateDirectory: state) == nil)
        await origin.stop()
    }

    @Test func lockedStateDirectoryExits2() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let origin = try TestOrigin()
        let policies = try origin.writePolicies(in: directory)
        let state = directory.path + "/state"
        let holder = try ServiceSetup.openService(
            policies: try ServiceSetup.loadPolicies(policies), stateDirectory: state, fetcher: try CurlOriginFetcher())
        let out = CapturedOutput()
        let err = CapturedOutput()
        let options = ServeCommand(
            listen: ListenAddress(host: "127.0.0.1", port: 0), policiesDirectory: policies, stateDirectory: state)
        let status = await options.run(
            context: CommandContext(stdout: out, stderr: err, environment: [:]), configuration: .init(until: { "never" }))
        #expect(status == .unusableInput)
        #expect(
            err.text
                == "mediactl: cannot open state directory '\(state)': its audit log is locked by another process (is another mediactl serve running?)\n"
        )
        await holder.stop()
        await origin.stop()
    }

    @Test func stateDirectoryThatIsAFileExits2() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let origin = try TestOrigin()
        let policies = try origin.writePolicies(in: directory)
        let state = try directory.file("state", contents: "x")
        let run = await CLIRun.run(
            ["serve", "--policies", policies, "--state-dir", state, "--listen", "127.0.0.1:0"],
            using: CommandEnvironment(stop: { "never" }))
        #expect(
            run
                == CLIRun(
                    status: 2, stdout: "",
                    stderr: "mediactl: cannot open state directory '\(state)': \(state) exists and is not a directory\n"))
        await origin.stop()
    }

    @Test func expiredEntriesAreSweptPeriodically() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let origin = try TestOrigin(addsDateField: false)
        let policies = try origin.writePolicies(in: directory)
        let state = directory.path + "/state"
        let now = Mutex<Double>(Date().timeIntervalSince1970.rounded(.down))
        let serving = try await Self.start(
            policies: policies, state: state, sweepInterval: .milliseconds(20),
            service: { $0.clock = { now.withLock { $0 } } })
        let receipt = try await HTTPGet.fetch(
            serving.base + "/receipts/r-7731.png", headers: ["Authorization": "Bearer demo-token-u1"])
        #expect(
            receipt.header("Cache-Status") == "mediactl; fwd=uri-miss; fwd-status=200; ttl=60; stored; detail=encrypted-disk")
        #expect(try AuditReader.records(directory: state + "/audit").map(\.event).filter({ $0 != .policy }) == [.start, .store])
        now.withLock { $0 += 61 }
        let swept = await eventually {
            ((try? AuditReader.records(directory: state + "/audit")) ?? []).contains { $0.event == .expire }
        }
        #expect(swept)
        let expire = try AuditReader.records(directory: state + "/audit").first { $0.event == .expire }
        #expect(expire?.tier?.rawValue == "private")
        #expect(expire?.storage == .encryptedDisk)
        #expect(await serving.stop() == .success)
        await origin.stop()
    }

    /// The demo origin, holding every answer until ``release`` opens.
    final class HeldOrigin: HTTPHandling {
        let origin: DemoOrigin
        let release = Gate()
        let received = Atomic<Int>(0)

        init() throws { origin = try DemoOrigin(samples: DemoSamples.all()) }

        func handle(_ request: HTTPServerRequest) async -> HTTPServerResponse {
            received.add(1, ordering: .sequentiallyConsistent)
            _ = await release.wait()
            return origin.answer(request)
        }
    }

    @Test func stopLetsTheInFlightRequestFinishBeforeTheServiceStops() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let held = try HeldOrigin()
        let originServer = HTTPServer(configuration: .init(host: "127.0.0.1", port: 0), handler: held)
        let originPort = try originServer.start()
        let policies = directory.path + "/Policies"
        try FileManager.default.createDirectory(atPath: policies, withIntermediateDirectories: false)
        try Data(DemoPolicy.text.replacingOccurrences(of: "127.0.0.1:8081", with: "127.0.0.1:\(originPort)").utf8)
            .write(to: URL(fileURLWithPath: policies + "/default.json"))
        let state = directory.path + "/state"
        let serving = try await Self.start(policies: policies, state: state)
        let inFlight = Task { try await HTTPGet.fetch(serving.base + "/catalog/coffee-237a7131.jpg") }
        #expect(await eventually { held.received.load(ordering: .sequentiallyConsistent) == 1 })
        let stopping = Task { await serving.stop() }
        // The server is draining once its listening socket is closed; the request is still held, and
        // the service has not been stopped (no `stop` record).
        let port = serving.port
        #expect(await eventually { !FreePort.accepts(port: port) })
        #expect(try AuditReader.records(directory: state + "/audit").map(\.event).filter({ $0 != .policy }) == [.start])
        held.release.open()
        let answer = try await inFlight.value
        #expect(answer.status == 200)
        #expect(answer.header("Cache-Status")?.hasSuffix("; stored; detail=disk") == true)
        #expect(await stopping.value == .success)
        #expect(try AuditReader.records(directory: state + "/audit").map(\.event).filter({ $0 != .policy }) == [.start, .store, .stop])
        await OffPool.run { originServer.stop() }
    }

    @Test func listenHostNamesAreResolved() throws {
        #expect(try ListenResolver.numericHost("127.0.0.1") == "127.0.0.1")
        #expect(try ListenResolver.numericHost("::1") == "::1")
        #expect(try ListenResolver.numericHost("localhost") == "127.0.0.1")
    }
}
