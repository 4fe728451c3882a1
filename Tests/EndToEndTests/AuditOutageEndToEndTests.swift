import Foundation
import MediaTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The built binary while its audit log cannot be written (hardening item 9 of issue 22; docs/operations.md, "When
/// the audit log cannot be written"): the log of a running `mediactl serve` is made immutable (`chattr +i`, which
/// stops root too) and writable again. Misses are served and not stored, `/_mediactl/ready` answers 503 with the
/// code while `/_mediactl/health` stays 200, stderr says so once; after a retry storing resumes, the log has its
/// gap record and verifies.
@Suite(.enabled(if: NginxOrigin.isAvailable, "nginx is installed by scripts/test"),
       .enabled(if: ImmutableFlag.isSupported, "chattr +i is not supported on the temporary folder's file system"),
       .serialized)
struct AuditOutageEndToEndTests {
    static let horse = "/catalog/horse-d29d871c.jpg"
    static let coins = "/catalog/coins-1fea11f1.jpg"
    static let failurePrefix = "mediactl: audit log cannot be written: "
    static let recoveryPrefix = "mediactl: audit log written again after "

    static func log(_ world: ServeEnvironment) -> URL {
        world.stateDirectory.appendingPathComponent("audit/audit.jsonl")
    }

    /// A started `serve` whose active log file a test makes immutable; ``tearDown()`` makes it writable again first.
    struct Outage {
        let world: ServeEnvironment
        let log: URL
        let serve: MediactlProcess

        init() throws {
            world = try ServeEnvironment()
            log = AuditOutageEndToEndTests.log(world)
            do {
                try world.start()
                serve = try #require(world.serve)
            } catch {
                world.tearDown()
                throw error
            }
        }

        func tearDown() {
            try? ImmutableFlag.clear(log)
            world.tearDown()
        }
    }

    static func lines(_ serve: MediactlProcess, prefix: String) -> [String] {
        serve.stderr.split(separator: "\n").map(String.init).filter { $0.hasPrefix(prefix) }
    }

    static func metric(_ world: ServeEnvironment, _ name: String) throws -> String? {
        try world.admin("/_mediactl/metrics").text.split(separator: "\n").map(String.init)
            .first { $0.hasPrefix(name + " ") }
    }

    /// Polls `/_mediactl/ready` until it answers `status` (at most `seconds`: retries come 1, 2, 4, 8, 16 s apart).
    static func waitForReady(_ world: ServeEnvironment, status: Int, seconds: Double = 45) throws -> HTTPResponse {
        let deadline = Date().addingTimeInterval(seconds)
        var answer = try world.admin("/_mediactl/ready")
        while answer.status != status && Date() < deadline {
            usleep(50_000)
            answer = try world.admin("/_mediactl/ready")
        }
        return answer
    }

    /// Runs the Python block of docs/audit-format.md ("Re-verify in a few lines of Python") on `directory` and returns
    /// its stdout; `nil` without `/usr/bin/python3`.
    static func documentedPythonVerifier(_ directory: URL) throws -> String? {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/python3") else { return nil }
        let document = try String(contentsOf: MediactlProcess.packageRoot.appendingPathComponent("docs/audit-format.md"),
                                  encoding: .utf8)
        let section = try #require(document.range(of: "### Re-verify in a few lines of Python"))
        let start = try #require(document.range(of: "```python\n", range: section.upperBound..<document.endIndex))
        let end = try #require(document.range(of: "\n```", range: start.upperBound..<document.endIndex))
        let script = FileManager.default.temporaryDirectory.appendingPathComponent("reverify-\(UUID().uuidString).py")
        try String(document[start.upperBound..<end.lowerBound]).write(to: script, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: script) }
        return try ChildProcess.run(URL(fileURLWithPath: "/usr/bin/python3"), [script.path, directory.path]).stdout
    }

    @Test func anImmutableLogStopsStoringUntilItIsWritableAgain() throws {
        let outage = try Outage()
        defer { outage.tearDown() }
        let (world, log, serve) = (outage.world, outage.log, outage.serve)
        #expect(try world.get(Self.horse).cacheStatus.stored)
        let ready = try world.admin("/_mediactl/ready")
        #expect(ready.status == 200)
        #expect(ready.text == "{\"audit\":\"ok\",\"diskSpace\":\"ok\",\"policies\":\"ok\",\"status\":\"ready\"}\n")

        try ImmutableFlag.set(log)
        let first = try world.get(Self.coins)
        #expect(first.status == 200)
        #expect(first.cacheStatus.forward == "uri-miss")
        #expect(first.cacheStatus.detail == "audit-unavailable")
        #expect(!first.cacheStatus.stored)
        #expect(first.body.count > 0)

        let unready = try world.admin("/_mediactl/ready")
        #expect(unready.status == 503)
        #expect(unready.header("Content-Type") == "application/problem+json")
        #expect(unready.problemCode == "audit-unavailable")
        #expect(unready.problemDetail?.hasPrefix("the audit log cannot be written since ") == true)
        #expect(unready.problemDetail?.contains(" (EPERM (1)): responses are served but not stored; next retry in ") == true)
        #expect((1...30).contains(Int(unready.header("Retry-After") ?? "") ?? 0), "Retry-After: \(unready.header("Retry-After") ?? "none")")
        #expect(try world.admin("/_mediactl/health").status == 200)
        #expect(try world.get("/_mediactl/ready").status == 404)  // the public listener answers no admin path

        let second = try world.get(Self.coins)
        #expect(second.status == 200)
        #expect(second.cacheStatus.detail == "audit-unavailable")
        #expect(world.origin.accessLog(prefix: Self.coins, count: 2).count == 2)
        #expect(try Self.metric(world, "mediactl_audit_writer_failed") == "mediactl_audit_writer_failed 1")
        #expect(Self.lines(serve, prefix: "mediactl: audit log") == [
            Self.failurePrefix + "EPERM (1) from write \(log.path); storing stopped (responses are served, not stored) "
                + "until a retry succeeds, the first in 1 s",
        ])
        // Nothing was written while it failed: the file still ends with the horse's store.
        #expect(world.auditRecords.last?.event == "store")

        try ImmutableFlag.clear(log)
        let back = try Self.waitForReady(world, status: 200)
        #expect(back.status == 200)
        #expect(back.text == "{\"audit\":\"ok\",\"diskSpace\":\"ok\",\"policies\":\"ok\",\"status\":\"ready\"}\n")
        let third = try world.get(Self.coins)
        #expect(third.cacheStatus.stored)
        #expect(try world.get(Self.coins).cacheStatus.hit)
        #expect(world.origin.accessLog(prefix: Self.coins, count: 3).count == 3)
        #expect(try Self.metric(world, "mediactl_audit_writer_failed") == "mediactl_audit_writer_failed 0")
        #expect(try Self.metric(world, "mediactl_audit_writer_outages_total") == "mediactl_audit_writer_outages_total 1")
        let recovered = Self.lines(serve, prefix: Self.recoveryPrefix)
        #expect(recovered.count == 1)
        #expect(recovered.first?.contains(": storing resumed; 2 storage decisions refused since ") == true)
        #expect(recovered.first?.contains(" (EPERM (1)), noted in gap record ") == true)
        #expect(Self.lines(serve, prefix: Self.failurePrefix).count == 1)

        #expect(serve.terminate() == 0)
        #expect(!serve.stderr.contains("stopping while the audit log cannot be written"))
        world.stop()
        let records = world.auditRecords
        let gaps = records.filter { $0.event == "gap" }
        #expect(gaps.count == 1)
        let gap = try #require(gaps.first)
        #expect(gap.count == 2)
        #expect(gap.reason == "audit-unavailable:eperm")
        #expect(gap.tier == nil && gap.key == nil && gap.url == nil)
        let since = try #require(gap.since)
        #expect(since <= gap.time)
        #expect(recovered.first?.hasSuffix("noted in gap record \(gap.seq)") == true)
        // The gap record follows the horse's store and precedes the coins' store; the log ends with stop.
        let index = try #require(records.firstIndex { $0.event == "gap" })
        #expect(records[index - 1].event == "store")
        #expect(records[index - 1].url?.hasSuffix(Self.horse) == true)
        #expect(records[index + 1].event == "store")
        #expect(records[index + 1].url?.hasSuffix(Self.coins) == true)
        #expect(records.last?.event == "stop")
        let verify = try world.auditVerify()
        #expect(verify.exitCode == 0, "\(verify.stdout)\(verify.stderr)")
        #expect(verify.stdout == "ok: \(records.count) records, last hash \(records.last?.hash ?? "")\n")
        // The re-verifier docs/audit-format.md gives others accepts the chain across the gap unchanged.
        if let python = try Self.documentedPythonVerifier(world.stateDirectory.appendingPathComponent("audit")) {
            #expect(python == "ok \(records.count) \(records.last?.hash ?? "")\n")
        }
        let (audit, report) = try world.audit()
        #expect(audit.exitCode == 0, "\(audit.stdout)")
        #expect(report?.violations.isEmpty == true)
        #expect(report?.row("public", "disk")?.stored == 2)
    }

    /// SIGTERM while the log is still immutable: stderr says no `stop` record was written, the exit is clean, and
    /// the chain (which simply ends at the last record written) verifies once the file is writable again.
    @Test func aStopWhileTheLogIsImmutableSaysSoAndTheChainStaysIntact() throws {
        let outage = try Outage()
        defer { outage.tearDown() }
        let (world, log, serve) = (outage.world, outage.log, outage.serve)
        #expect(try world.get(Self.horse).cacheStatus.stored)
        try ImmutableFlag.set(log)
        #expect(try world.get(Self.coins).cacheStatus.detail == "audit-unavailable")
        #expect(serve.terminate() == 0)
        #expect(Self.lines(serve, prefix: Self.failurePrefix).count == 1)
        let stopping = Self.lines(serve, prefix: "mediactl: stopping while the audit log cannot be written ")
        #expect(stopping.count == 1)
        #expect(stopping.first?.hasPrefix("mediactl: stopping while the audit log cannot be written (EPERM (1) from write "
            + "\(log.path), since ") == true)
        #expect(stopping.first?.hasSuffix("Z): no stop record written; 1 storage decision refused") == true)
        #expect(Self.lines(serve, prefix: Self.recoveryPrefix).isEmpty)
        world.stop()
        try ImmutableFlag.clear(log)
        let records = world.auditRecords
        #expect(records.last?.event == "store")
        #expect(!records.contains { $0.event == "stop" || $0.event == "gap" })
        #expect(try world.auditVerify().exitCode == 0)
        // The next start continues the chain.
        try world.start()
        #expect(world.stop() == 0)
        #expect(world.auditRecords.suffix(1).map(\.event) == ["stop"])
        #expect(try world.auditVerify().exitCode == 0)
    }

    /// SIGTERM once the log is writable again (before or after the retry): the gap record, then `stop`.
    @Test func aStopOnceTheLogIsWritableAgainWritesTheGapThenStop() throws {
        let outage = try Outage()
        defer { outage.tearDown() }
        let (world, log, serve) = (outage.world, outage.log, outage.serve)
        try ImmutableFlag.set(log)
        #expect(try world.get(Self.coins).cacheStatus.detail == "audit-unavailable")
        try ImmutableFlag.clear(log)
        #expect(serve.terminate() == 0)
        #expect(Self.lines(serve, prefix: Self.failurePrefix).count == 1)
        #expect(Self.lines(serve, prefix: Self.recoveryPrefix).count == 1)
        #expect(!serve.stderr.contains("stopping while the audit log cannot be written"))
        world.stop()
        let records = world.auditRecords
        #expect(records.suffix(2).map(\.event) == ["gap", "stop"])
        #expect(records.suffix(2).first?.count == 1)
        #expect(try world.auditVerify().exitCode == 0)
    }
}
