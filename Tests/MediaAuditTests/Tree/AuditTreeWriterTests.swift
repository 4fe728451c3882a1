import Foundation
import Glibc
import MediaAudit
import MediaCore
import MediaCrypto
import Testing

/// The log keeps its Merkle tree as it writes: each record's entry (its `hash`) in `tree-entries`, and a signed
/// checkpoint in `tree-checkpoint` every N records, at rotation and at close. A crash's lost entries are taken again
/// from the records; a prune keeps the removed records' entries, so the tree, and every proof, outlive it.
@Suite struct AuditTreeWriterTests {
    static let signer = try! NoteSigner(name: "mediactl/audit/test", key: Ed25519SigningKey(seed: Array(repeating: 7, count: 32)))

    /// The checkpoint in `tree-checkpoint`, its signature checked; `nil` when there is none.
    func checkpoint(_ dir: TempDirectory) throws -> TreeCheckpoint? {
        let note = dir.read("tree-checkpoint")
        return note.isEmpty ? nil : try TreeCheckpoint(text: NoteVerifier(Self.signer).open(note))
    }

    /// The checkpoint of the first `size` records, rebuilt from the log's files.
    func expected(_ dir: TempDirectory, size: Int) throws -> TreeCheckpoint {
        try AuditTree.read(directory: dir.audit).checkpoint(size: size, origin: Self.signer.name)
    }

    func entryBytes(_ dir: TempDirectory) -> [UInt8] {
        Array(FileManager.default.contents(atPath: dir.audit + "/tree-entries") ?? Data())
    }

    /// The records' hashes, as `tree-entries` holds them.
    func recordHashes(_ dir: TempDirectory) throws -> [UInt8] {
        try AuditReader.records(directory: dir.audit).flatMap { Hex.decode($0.hash.hex)! }
    }

    func open(_ dir: TempDirectory, _ configuration: AuditLog.Configuration = .init(checkpointEveryRecords: 4),
              clock: TestClock = TestClock()) throws -> AuditLog {
        try AuditLog(stateDirectory: dir.path, configuration: configuration, clock: clock.clock, signer: Self.signer)
    }

    @Test func aCheckpointEveryNRecordsAndAtClose() throws {
        let dir = TempDirectory()
        defer { dir.cleanup() }
        let log = try open(dir)
        for index in 1...3 { try log.append(storeEntry("k\(index)")) }
        #expect(try checkpoint(dir) == nil)
        try log.append(storeEntry("k4"))
        #expect(try checkpoint(dir) == expected(dir, size: 4))
        for index in 5...6 { try log.append(storeEntry("k\(index)")) }
        #expect(try checkpoint(dir)?.size == 4)
        try log.close()
        #expect(try checkpoint(dir) == expected(dir, size: 6))
        let leaves = try AuditTree.read(directory: dir.audit).leaves
        #expect(entryBytes(dir) == (try recordHashes(dir)))
        #expect(try checkpoint(dir)?.text == "mediactl/audit/test\n6\n\(Data(MerkleTree.root(leaves[...]).bytes).base64EncodedString())\n")
    }

    @Test func recordsThatWaitedTheIntervalAreCheckpointedOnAppendAtOpenAndWhenTheLogIsQuiet() throws {
        let dir = TempDirectory()
        defer { dir.cleanup() }
        let clock = TestClock()
        let configuration = AuditLog.Configuration(syncIntervalMilliseconds: 5, checkpointEveryRecords: 100,
                                                   checkpointIntervalMilliseconds: 1_000)
        var log: AuditLog? = try open(dir, configuration, clock: clock)
        for index in 1...2 { try log!.append(storeEntry("k\(index)")) }
        #expect(try checkpoint(dir) == nil)
        clock.advance(milliseconds: 1_000)
        try log!.append(storeEntry("k3"))
        #expect(try checkpoint(dir) == expected(dir, size: 3))
        // Quiet: the log's thread writes it once the records waited the interval.
        try log!.append(storeEntry("k4"))
        clock.advance(milliseconds: 1_000)
        let deadline = Date().addingTimeInterval(10)
        while try checkpoint(dir)?.size != 4, Date() < deadline { usleep(5_000) }
        #expect(try checkpoint(dir) == expected(dir, size: 4))
        // Killed after a record: the next open checkpoints it.
        try log!.append(storeEntry("k5"))
        log = nil
        #expect(try checkpoint(dir)?.size == 4)
        try open(dir, configuration, clock: clock).close()
        #expect(try checkpoint(dir) == expected(dir, size: 5))
    }

    @Test func openingContinuesFromTheFrontierKeptAtTheSignedCheckpoint() throws {
        let dir = TempDirectory()
        defer { dir.cleanup() }
        let first = try open(dir)
        for index in 1...5 { try first.append(storeEntry("k\(index)")) }
        try first.close()
        #expect(FileManager.default.fileExists(atPath: dir.audit + "/tree-frontier"))
        // An early entry changed on disk: the kept frontier (its root is the signed one) is used, not the entries
        // before it, so the next checkpoint is still the records' tree.
        var entries = entryBytes(dir)
        entries[0] ^= 1
        try Data(entries).write(to: URL(fileURLWithPath: dir.audit + "/tree-entries"))
        let second = try open(dir)
        try second.append(storeEntry("k6"))
        try second.close()
        #expect(try checkpoint(dir) == expected(dir, size: 6))
        // A frontier that is not the signed checkpoint's is not used: the tree is rebuilt from the entries.
        var frontier = Array(FileManager.default.contents(atPath: dir.audit + "/tree-frontier")!)
        frontier[frontier.count - 1] ^= 1
        try Data(frontier).write(to: URL(fileURLWithPath: dir.audit + "/tree-frontier"))
        try Data(try recordHashes(dir)).write(to: URL(fileURLWithPath: dir.audit + "/tree-entries"))
        let third = try open(dir)
        try third.append(storeEntry("k7"))
        try third.close()
        #expect(try checkpoint(dir) == expected(dir, size: 7))
    }

    @Test func rotationCheckpointsTheSegmentsLastRecord() throws {
        let dir = TempDirectory()
        defer { dir.cleanup() }
        let log = try open(dir, .init(maxSegmentBytes: 1_000, checkpointEveryRecords: 100))
        for index in 1...4 { try log.append(storeEntry("k\(index)")) }
        let rotated = dir.lines("audit-000001.jsonl").count
        #expect(rotated == 2)
        #expect(try checkpoint(dir) == expected(dir, size: rotated))
        try log.close()
    }

    @Test func leavesACrashLostAreMadeAgainAndLeavesPastTheLogDropped() throws {
        let dir = TempDirectory()
        defer { dir.cleanup() }
        let first = try open(dir)
        for index in 1...5 { try first.append(storeEntry("k\(index)")) }
        try first.close()
        let whole = entryBytes(dir)
        #expect(whole.count == 5 * 32)
        // Two and a half entries survived.
        try Data(whole.prefix(80)).write(to: URL(fileURLWithPath: dir.audit + "/tree-entries"))
        let second = try open(dir)
        #expect(second.openReport.treeProblem == nil)
        try second.append(storeEntry("k6"))
        try second.close()
        #expect(entryBytes(dir) == (try recordHashes(dir)))
        #expect(try checkpoint(dir) == expected(dir, size: 6))
        // Entries of records a torn tail took.
        try Data(entryBytes(dir) + Array(repeating: 9, count: 64)).write(to: URL(fileURLWithPath: dir.audit + "/tree-entries"))
        try open(dir).close()
        #expect(entryBytes(dir).count == 6 * 32)
    }

    /// A log of 30 records in segments of two.
    func rotatedLog(_ dir: TempDirectory) throws {
        let log = try open(dir, .init(maxSegmentBytes: 1_000))
        for index in 1...30 { try log.append(storeEntry("k\(index)")) }
        try log.close()
    }

    @Test func theTreeAndItsProofsOutliveAPrune() throws {
        let dir = TempDirectory()
        defer { dir.cleanup() }
        try rotatedLog(dir)
        let before = try AuditTree.read(directory: dir.audit)
        let pruned = try AuditPruner.prune(directory: dir.audit, keepSegments: 1)
        #expect(pruned.seqs?.lowerBound == 1)
        let after = try AuditTree.read(directory: dir.audit)
        #expect(after.leaves == before.leaves)
        let proof = MerkleTree.inclusionProof(index: 0, after.leaves[...])
        #expect(MerkleTree.verifyInclusion(leaf: before.leaves[0], index: 0, size: 30, proof: proof,
                                           root: try #require(try checkpoint(dir)).root))
        // The entry of the last pruned record is checked against the prune's checkpoint.
        let last = try #require(pruned.seqs?.upperBound)
        var bytes = entryBytes(dir)
        bytes[(last - 1) * 32] ^= 1
        try Data(bytes).write(to: URL(fileURLWithPath: dir.audit + "/tree-entries"))
        #expect(throws: AuditError(.corruptLog, "tree-entries entry \(last - 1) is not the hash of seq \(last), the last pruned record")) {
            try AuditTree.read(directory: dir.audit)
        }
    }

    @Test func aPruneThatWouldLoseEntriesIsRefused() throws {
        let dir = TempDirectory()
        defer { dir.cleanup() }
        try rotatedLog(dir)
        let entries = entryBytes(dir)
        try Data(entries.prefix(2 * 32)).write(to: URL(fileURLWithPath: dir.audit + "/tree-entries"))
        #expect(throws: AuditError(.pruneRefused, "refusing to prune: tree-entries holds 2 entries and the segments to remove reach seq 3: "
            + "the Merkle tree would lose them (the writer adds missing entries when it opens the log)")) {
            try AuditPruner.prune(directory: dir.audit, keepSegments: 1)
        }
        var changed = entries
        changed[0] ^= 1
        try Data(changed).write(to: URL(fileURLWithPath: dir.audit + "/tree-entries"))
        #expect(throws: AuditError(.pruneRefused, "refusing to prune: tree-entries entry 0 is not the hash of seq 1")) {
            try AuditPruner.prune(directory: dir.audit, keepSegments: 1)
        }
    }

    @Test func aLogPrunedWithoutItsEntriesKeepsWritingRecordsAndSaysWhyItHasNoTree() throws {
        let dir = TempDirectory()
        defer { dir.cleanup() }
        try rotatedLog(dir)
        let pruned = try AuditPruner.prune(directory: dir.audit, keepSegments: 1)
        try FileManager.default.removeItem(atPath: dir.audit + "/tree-entries")
        let log = try open(dir)
        let next = try #require(pruned.seqs?.upperBound) + 1
        let file = try #require(AuditReader.files(directory: dir.audit).first.map { String($0.split(separator: "/").last!) })
        #expect(log.openReport.treeProblem
            == "tree-entries ends at seq 0 and the log's next record is seq \(next) (\(file)): the records between were pruned")
        #expect(try log.append(storeEntry("k31")).seq == 31)
        try log.close()
    }
}
