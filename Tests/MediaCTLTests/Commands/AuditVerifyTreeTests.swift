import Foundation
import MediaAudit
import MediaCrypto
import Testing

@testable import MediaCTL

/// `audit verify` checks the tree files beside the chain (docs/audit-format.md, "Merkle checkpoints"): an entry that is
/// not its record's hash, a log cut short after a signed checkpoint, and a checkpoint another key signed each fail
/// with the chain still intact.
@Suite(.serialized) struct AuditVerifyTreeTests {
    /// A stopped, populated state directory whose log wrote its entries and a signed checkpoint.
    static func stopped() async throws -> (harness: ServiceStateHarness, state: [String], count: Int) {
        let harness = try ServiceStateHarness()
        try await harness.populate()
        await harness.service.stop()
        return (harness, ["--state-dir", harness.stateDirectory], try harness.records().count)
    }

    @Test func theFilesOfAStoppedLogAgreeWithItsRecords() async throws {
        let (harness, state, count) = try await Self.stopped()
        defer { Task { await harness.close() } }
        let run = await harness.run(["audit", "verify"] + state)
        #expect(run.status == 0)
        #expect(run.stdout == "ok: \(count) records, last hash \(try harness.records().last!.hash.hex)\n")
    }

    @Test func anEntryThatIsNotItsRecordsHashFails() async throws {
        let (harness, state, count) = try await Self.stopped()
        defer { Task { await harness.close() } }
        let path = harness.stateDirectory + "/audit/tree-entries"
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(bytes.count == 32 * count)
        bytes[2 * 32] ^= 0x01
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let run = await harness.run(["audit", "verify"] + state)
        #expect(run.status == 1)
        #expect(run.stdout == "failed: tree-entries entry 2 is not the hash of seq 3; the chain of \(count) records is intact\n")
    }

    @Test func aLogCutShortAfterItsCheckpointFails() async throws {
        let (harness, state, count) = try await Self.stopped()
        defer { Task { await harness.close() } }
        let records = try harness.records()
        let text = records.dropLast(2).map { String(decoding: $0.canonicalBytes(includingHash: true), as: UTF8.self) + "\n" }
        try text.joined().write(toFile: harness.stateDirectory + "/audit/audit.jsonl", atomically: true, encoding: .utf8)
        let run = await harness.run(["audit", "verify"] + state)
        #expect(run.status == 1)
        #expect(run.stdout == "failed: tree-checkpoint names \(count) records and the log holds \(count - 2); the chain of \(count - 2) records is intact\n")
    }

    @Test func aCheckpointAnotherKeySignedFails() async throws {
        let (harness, state, count) = try await Self.stopped()
        defer { Task { await harness.close() } }
        let path = harness.stateDirectory + "/audit/tree-checkpoint"
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let body = String(text.split(separator: "\n\n")[0]) + "\n"
        let origin = String(body.split(separator: "\n")[0])
        let stranger = try NoteSigner(name: origin, key: Ed25519SigningKey.generate().key)
        try stranger.sign(body).write(toFile: path, atomically: true, encoding: .utf8)
        let run = await harness.run(["audit", "verify"] + state)
        #expect(run.status == 1)
        #expect(run.stdout == "failed: tree-checkpoint does not verify with this state directory's key: the note has no signature of \(origin); the chain of \(count) records is intact\n")
    }
}
