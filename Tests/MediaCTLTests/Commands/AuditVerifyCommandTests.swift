import MediaTestSupport
import Foundation
import MediaAudit
import Testing

@testable import MediaCTL

@Suite struct AuditVerifyCommandTests {
    @Test func intactChainPrintsCountAndLastHash() async throws {
        let harness = try ServiceStateHarness()
        defer { Task { await harness.close() } }
        try await harness.populate()
        let records = try harness.records()
        let result = await harness.run(["audit", "verify", "--state-dir", harness.stateDirectory])
        #expect(result.status == 0)
        #expect(result.stderr == "")
        #expect(result.stdout == "ok: \(records.count) records, last hash \(records.last!.hash.hex)\n")
    }

    @Test func deletedLineNamesTheGap() async throws {
        let harness = try ServiceStateHarness()
        defer { Task { await harness.close() } }
        try await harness.populate()
        let log = harness.stateDirectory + "/audit/audit.jsonl"
        var lines = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(lines.count >= 3)
        lines.remove(at: 1)
        try (lines.joined(separator: "\n") + "\n").write(toFile: log, atomically: false, encoding: .utf8)
        let result = await harness.run(["audit", "verify", "--state-dir", harness.stateDirectory])
        #expect(result.status == 1)
        #expect(
            result.stdout
                == "failed: seq-gap at seq 2 (audit.jsonl line 2): expected seq 2, found 3; 1 records verified\n")
    }

    @Test func editedLineNamesHashMismatch() async throws {
        let harness = try ServiceStateHarness()
        defer { Task { await harness.close() } }
        try await harness.populate()
        let log = harness.stateDirectory + "/audit/audit.jsonl"
        let text = try String(contentsOfFile: log, encoding: .utf8)
        let edited = text.replacingOccurrences(of: "\"tier\":\"public\"", with: "\"tier\":\"avatar\"")
        #expect(edited != text)
        try edited.write(toFile: log, atomically: false, encoding: .utf8)
        // The first edited line (a `policy` record of the public tier comes before any store).
        let before = text.split(separator: "\n"), after = edited.split(separator: "\n")
        let seq = try #require(zip(before, after).enumerated().first { $0.element.0 != $0.element.1 }?.offset) + 1
        let result = await harness.run(["audit", "verify", "--state-dir", harness.stateDirectory])
        #expect(result.status == 1)
        #expect(result.stdout.hasPrefix("failed: hash-mismatch at seq \(seq) (audit.jsonl line \(seq)): hash "))
        #expect(result.stdout.hasSuffix("; \(seq - 1) records verified\n"))
    }

    @Test func missingStateOrLogIsExitTwo() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let missing = await CLIRun.run(
            ["audit", "verify", "--state-dir", folder.path + "/x"])
        #expect(missing.status == 2)
        #expect(missing.stderr == "mediactl: state directory '\(folder.path)/x' does not exist\n")
        let noLog = await CLIRun.run(
            ["audit", "verify", "--state-dir", folder.path])
        #expect(noLog.status == 2)
        #expect(noLog.stdout == "")
        #expect(noLog.stderr == "mediactl: no audit log in '\(folder.path)/audit'\n")
    }
}
