import MediaTestSupport
import Foundation
import MediaAudit
import MediaCrypto
import MediaService
import Testing

@testable import MediaCTL

/// `mediactl audit prune`: exact output, refusals and usage errors.
@Suite struct AuditPruneCommandTests {
    /// A state directory whose log holds `count` disk stores over several 2,000-byte segments.
    func stateWithLog(count: Int = 30) throws -> (TemporaryDirectory, [AuditRecord]) {
        let state = try TemporaryDirectory()
        let log = try AuditLog(stateDirectory: state.path, configuration: .init(maxSegmentBytes: 2_000))
        var records: [AuditRecord] = []
        for index in 1...count {
            records.append(try log.append(AuditEntry(
                event: .store, tier: try AuditName("public"), route: try AuditName("catalog"), storage: .disk,
                key: AuditDigest(SHA256.hash("k\(index)")), reason: .tierStorage, bytes: 100, ttl: 60)))
        }
        try log.close()
        return (state, records)
    }

    static let policies = ServiceStateHarness.repository.appendingPathComponent("Policies").path

    func run(_ arguments: [String]) async -> CLIRun {
        await CLIRun.run(arguments)
    }

    @Test func prunesAndSaysWhatWasRemovedThenVerifyContinuesFromTheCheckpoint() async throws {
        let (state, records) = try stateWithLog()
        defer { state.remove() }
        let files = AuditReader.files(directory: state.path + "/audit")
        #expect(files.count >= 4)
        let removed = files.dropLast(2)  // keeping one rotated segment, and the active file
        let bytes = try removed.reduce(0) { $0 + (try FileManager.default.attributesOfItem(atPath: $1)[.size] as! Int) }
        let result = await run(["audit", "prune", "--keep-segments", "1", "--state-dir", state.path, "--policies", Self.policies])
        let checkpoint = try #require(try AuditCheckpoint.read(directory: state.path + "/audit"))
        #expect(result == CLIRun(status: 0, stdout: """
            pruned \(removed.count) segments (seq 1-\(checkpoint.seq), \(bytes) bytes); checkpoint at seq \(checkpoint.seq), \
            hash \(records[checkpoint.seq - 1].hash.hex); \(checkpoint.objectCount) stored objects carried (\(checkpoint.objectCount) records)

            """, stderr: ""))
        let verify = await run(["audit", "verify", "--state-dir", state.path])
        #expect(verify == CLIRun(status: 0, stdout: """
            ok: \(records.count - checkpoint.seq) records after the checkpoint at seq \(checkpoint.seq), last hash \(records.last!.hash.hex)

            """, stderr: ""))
        let again = await run(["audit", "prune", "--keep-segments", "1", "--state-dir", state.path, "--policies", Self.policies])
        #expect(again == CLIRun(status: 0, stdout: "nothing to prune: 1 rotated segment, keeping 1\n", stderr: ""))
    }

    @Test func aBrokenChainIsRefusedWithExitOne() async throws {
        let (state, _) = try stateWithLog()
        defer { state.remove() }
        let first = AuditReader.files(directory: state.path + "/audit")[0]
        var text = try String(contentsOfFile: first, encoding: .utf8)
        text = text.replacingOccurrences(of: "\"seq\":2,", with: "\"seq\":9,")
        try text.write(toFile: first, atomically: false, encoding: .utf8)
        let result = await run(["audit", "prune", "--keep-segments", "1", "--state-dir", state.path, "--policies", Self.policies])
        #expect(result.status == 1)
        #expect(result.stdout == "")
        #expect(result.stderr.hasPrefix("mediactl: refusing to prune: "))
        #expect(try AuditCheckpoint.read(directory: state.path + "/audit") == nil)
    }

    @Test func missingStateDirectoryAndAuditLogAreExitTwo() async throws {
        let state = try TemporaryDirectory()
        defer { state.remove() }
        let missing = await run(["audit", "prune", "--keep-segments", "3", "--state-dir", state.path + "/none"])
        #expect(missing == CLIRun(status: 2, stdout: "", stderr: "mediactl: state directory '\(state.path)/none' does not exist\n"))
        let empty = await run(["audit", "prune", "--keep-segments", "3", "--state-dir", state.path])
        #expect(empty == CLIRun(status: 2, stdout: "", stderr: "mediactl: no audit log in '\(state.path)/audit'\n"))
    }

    @Test(arguments: [
        ([] as [String], "mediactl: audit prune requires --keep-segments N"),
        (["--keep-segments", "0"], "mediactl: invalid --keep-segments '0': expected a whole number from 1 to 1000000"),
        (["--keep-segments", "-2"], "mediactl: invalid --keep-segments '-2': expected a whole number from 1 to 1000000"),
        (["--keep-segments", "two"], "mediactl: invalid --keep-segments 'two': expected a whole number from 1 to 1000000"),
    ])
    func usageErrorsAreExit64(_ arguments: [String], _ message: String) async {
        let result = await run(["audit", "prune"] + arguments)
        #expect(result.status == 64)
        #expect(result.stdout == "")
        #expect(result.stderr == """
            \(message)
            Usage: mediactl audit prune --keep-segments N [--state-dir DIR] [--policies DIR]
            Run 'mediactl audit prune --help' for more information.

            """)
    }

    /// A real service keeps storing (and rotating) while its log is pruned three times; the audit of the
    /// state directory then accounts for every file, the ones stored before the checkpoint included.
    @Test func aServiceKeepsWritingWhileItsLogIsPrunedAndTheAuditStaysClean() async throws {
        let harness = try ServiceStateHarness(audit: .init(maxSegmentBytes: 3_000))
        defer { Task { await harness.close() } }
        let horse = try ServiceStateHarness.fixture("catalog/horse-d29d871c.jpg")
        var prunes: [Int32] = []
        for index in 0..<30 {
            harness.origin.setReply(
                .init(status: 200, fields: ["Cache-Control": "public, max-age=31536000"], body: horse),
                for: "http://origin.test/catalog/h\(index).jpg")
            let response = await harness.service.handle(ServiceRequest(target: "/catalog/h\(index).jpg"))
            #expect(response.outcome.storage == .stored(.disk))
            if index % 10 == 9 {
                prunes.append(await harness.run(["audit", "prune", "--keep-segments", "1", "--state-dir", harness.stateDirectory, "--policies", harness.policiesDirectory]).status)
            }
        }
        harness.service.flushWrites()
        #expect(prunes == [0, 0, 0])
        let checkpoint = try #require(try AuditCheckpoint.read(directory: harness.stateDirectory + "/audit"))
        // Most of the 30 objects were stored before the last prune's checkpoint (the first segment also holds
        // the start's policy batch).
        #expect(checkpoint.objectCount >= 19)
        #expect(try harness.objects(in: .disk).count == 30)
        let audit = await harness.audit()
        #expect(audit.status == 0)
        #expect(audit.stdout.hasPrefix("audit: "))
        #expect(audit.stdout.contains(" records after the checkpoint at seq \(checkpoint.seq), chain intact, last hash "))
        #expect(audit.stdout.hasSuffix("\nclean: no violations\n"))
    }

    /// A store the policies forbid is evidence: the prune refuses (exit 1) and removes nothing.
    @Test func recordsThePoliciesForbidAreNeverPruned() async throws {
        let (state, records) = try stateWithLog()
        defer { state.remove() }
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        _ = try folder.file("strict.json", contents: """
            { "tiers": { "public": { "storage": "memory" } },
              "routes": [ { "name": "catalog", "mount": "/catalog/", "origin": "http://o.test/", "tier": "public" } ] }
            """)
        let before = AuditReader.files(directory: state.path + "/audit")
        let result = await run(["audit", "prune", "--keep-segments", "1", "--state-dir", state.path, "--policies", folder.path])
        #expect(result.status == 1)
        // Every record in the segments to remove (all but the newest rotated one) is a store in disk.
        let removedRecords = try before.dropLast(2).reduce(0) {
            $0 + (try String(contentsOfFile: $1, encoding: .utf8)).split(separator: "\n").count
        }
        #expect(removedRecords > 0 && removedRecords < records.count)
        #expect(result.stderr == "mediactl: refusing to prune: the segments to remove hold \(removedRecords) records the "
            + "policies forbid (first: store-wider-than-tier at seq 1: store record 1 stored in disk; tier public allows "
            + "at most memory); resolve them, or prune with the policies they were written under\n")
        #expect(AuditReader.files(directory: state.path + "/audit") == before)
        #expect(try AuditCheckpoint.read(directory: state.path + "/audit") == nil)
    }
}
