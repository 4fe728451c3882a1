import Foundation
import MediaAudit
import MediaCrypto
import Testing

/// The log keeps its Merkle tree as it writes: each record's leaf in `tree-leaves`, and a signed checkpoint in
/// `tree-checkpoint` every N records, at rotation and at close. A crash's lost leaves are made again from the records;
/// a prune keeps the removed records' leaves, so the tree, and every proof, outlive it.
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

    func leafBytes(_ dir: TempDirectory) -> [UInt8] {
        Array(FileManager.default.contents(atPath: dir.audit + "/tree-leaves") ?? Data())
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
        #expect(leafBytes(dir) == leaves.flatMap(\.bytes))
        #expect(try checkpoint(dir)?.text == "mediactl/audit/test\n6\n\(Data(MerkleTree.root(leaves[...]).bytes).base64EncodedString())\n")
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
        let whole = leafBytes(dir)
        #expect(whole.count == 5 * 32)
        // Two and a half leaves survived.
        try Data(whole.prefix(80)).write(to: URL(fileURLWithPath: dir.audit + "/tree-leaves"))
        let second = try open(dir)
        #expect(second.openReport.treeProblem == nil)
        try second.append(storeEntry("k6"))
        try second.close()
        #expect(leafBytes(dir) == (try AuditTree.read(directory: dir.audit).leaves.flatMap(\.bytes)))
        #expect(try checkpoint(dir) == expected(dir, size: 6))
        // Leaves of records a torn tail took.
        try Data(leafBytes(dir) + Array(repeating: 9, count: 64)).write(to: URL(fileURLWithPath: dir.audit + "/tree-leaves"))
        try open(dir).close()
        #expect(leafBytes(dir).count == 6 * 32)
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
        // The leaf of the last pruned record is checked against the prune's checkpoint.
        let last = try #require(pruned.seqs?.upperBound)
        var bytes = leafBytes(dir)
        bytes[(last - 1) * 32] ^= 1
        try Data(bytes).write(to: URL(fileURLWithPath: dir.audit + "/tree-leaves"))
        #expect(throws: AuditError(.corruptLog, "tree-leaves leaf \(last - 1) is not the leaf of seq \(last), the last pruned record")) {
            try AuditTree.read(directory: dir.audit)
        }
    }

    @Test func aPruneThatWouldLoseLeavesIsRefused() throws {
        let dir = TempDirectory()
        defer { dir.cleanup() }
        try rotatedLog(dir)
        let leaves = leafBytes(dir)
        try Data(leaves.prefix(2 * 32)).write(to: URL(fileURLWithPath: dir.audit + "/tree-leaves"))
        #expect(throws: AuditError(.pruneRefused, "refusing to prune: tree-leaves holds 2 leaves and the segments to remove reach seq 3: "
            + "the Merkle tree would lose them (the writer adds missing leaves when it opens the log)")) {
            try AuditPruner.prune(directory: dir.audit, keepSegments: 1)
        }
        var changed = leaves
        changed[0] ^= 1
        try Data(changed).write(to: URL(fileURLWithPath: dir.audit + "/tree-leaves"))
        #expect(throws: AuditError(.pruneRefused, "refusing to prune: tree-leaves leaf 0 is not the leaf of seq 1")) {
            try AuditPruner.prune(directory: dir.audit, keepSegments: 1)
        }
    }

    @Test func aLogPrunedWithoutItsLeavesKeepsWritingRecordsAndSaysWhyItHasNoTree() throws {
        let dir = TempDirectory()
        defer { dir.cleanup() }
        try rotatedLog(dir)
        let pruned = try AuditPruner.prune(directory: dir.audit, keepSegments: 1)
        try FileManager.default.removeItem(atPath: dir.audit + "/tree-leaves")
        let log = try open(dir)
        let next = try #require(pruned.seqs?.upperBound) + 1
        let file = try #require(AuditReader.files(directory: dir.audit).first.map { String($0.split(separator: "/").last!) })
        #expect(log.openReport.treeProblem
            == "tree-leaves ends at seq 0 and the log's next record is seq \(next) (\(file)): the records between were pruned")
        #expect(try log.append(storeEntry("k31")).seq == 31)
        try log.close()
    }
}
