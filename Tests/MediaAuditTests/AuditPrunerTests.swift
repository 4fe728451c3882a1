import Foundation
import Glibc
import Synchronization
import MediaAudit
import MediaCrypto
import Testing

/// Retention: `AuditPruner` removes the oldest rotated segments after writing a checkpoint; the rest
/// verifies and reconciles from it, and the writer goes on.
@Suite struct AuditPrunerTests {
    /// A log of 30 records over several segments: stores of k1…k12 on disk (k3 updated, k2 evicted), a
    /// memory store, a sealed store later shredded, then more disk stores.
    func writeMixedLog(_ dir: TempDirectory) throws -> [AuditRecord] {
        let clock = TestClock()
        let log = try AuditLog(stateDirectory: dir.path, configuration: .init(maxSegmentBytes: 2_000), clock: clock.clock)
        var records: [AuditRecord] = []
        func append(_ entry: AuditEntry) throws {
            records.append(try log.append(entry))
            clock.advance(milliseconds: 1)
        }
        for index in 1...6 { try append(storeEntry("k\(index)")) }
        try append(AuditEntry(event: .update, tier: name("public"), route: name("catalog"), storage: .disk,
                              key: digest("k3"), reason: .tierStorage, bytes: 100, ttl: 120))
        try append(AuditEntry(event: .evict, tier: name("public"), route: name("catalog"), storage: .disk,
                              key: digest("k2"), reason: try ReasonCode("over-budget"), bytes: 100))
        try append(storeEntry("m1", storage: .memory))
        try append(storeEntry("s1", tier: "private", route: "receipts", storage: .encryptedDisk))
        try append(AuditEntry(event: .shred, tier: name("private"), storage: .encryptedDisk, key: digest("s1"),
                              reason: .unreadableAfterRestart, bytes: 100))
        for index in 7...25 { try append(storeEntry("k\(index)")) }
        try log.close()
        return records
    }

    func objects(_ checkpoint: AuditCheckpoint, _ dir: TempDirectory) throws -> [AuditRecord] {
        var out: [AuditRecord] = []
        try checkpoint.forEachObject(directory: dir.audit) { out.append($0) }
        return out
    }

    func segments(_ dir: TempDirectory) -> [String] {
        AuditReader.files(directory: dir.audit).map { String($0.split(separator: "/").last!) }
    }

    @Test func pruneKeepsTheNewestSegmentsAndACheckpointTheRestVerifiesFrom() throws {
        let dir = TempDirectory()
        defer { dir.cleanup() }
        let records = try writeMixedLog(dir)
        let before = segments(dir)
        #expect(before.count >= 5)
        let firstKept = try AuditReader.lines(directory: dir.audit).first { $0.file == before[before.count - 3] }!
        let lastRemovedSeq = try AuditRecord.parse(line: firstKept.text).seq - 1

        let result = try AuditPruner.prune(directory: dir.audit, keepSegments: 2)
        #expect(result.segments == before.count - 3)
        #expect(result.seqs == 1...lastRemovedSeq)
        #expect(segments(dir) == Array(before.suffix(3)))
        let checkpoint = try #require(try AuditCheckpoint.read(directory: dir.audit))
        #expect(checkpoint == result.checkpoint)
        #expect(checkpoint.seq == lastRemovedSeq)
        #expect(checkpoint.hash == records[lastRemovedSeq - 1].hash)
        #expect(checkpoint.segment == before.count - 3)
        // Carried: every object stored in the removed segments and not removed there: the disk ones (k3 with
        // its update) and the memory m1 (no start or stop since: its process still runs, and it may be a
        // later variant's source); not the evicted k2 or the shredded s1.
        let carried = records.prefix(lastRemovedSeq).filter {
            ($0.entry.storage == .disk || $0.entry.key == digest("m1")) && $0.entry.key != digest("k2")
                && ($0.entry.event == .store || $0.entry.event == .update)
        }
        #expect(carried.contains { $0.entry.key == digest("m1") && $0.entry.storage == .memory })
        #expect(try objects(checkpoint, dir) == carried)
        #expect(carried.contains { $0.entry.event == .update && $0.entry.key == digest("k3") })
        #expect(result.objects == Set(carried.map(\.entry.key)).count)
        #expect(checkpoint.objectCount == carried.count)
        #expect(dir.read(checkpoint.objectsFileName) == carried.map { $0.canonicalJSON(includingHash: true) + "\n" }.joined())
        #expect(checkpoint.objectsFileName == "checkpoint-" + String(format: "%06d", checkpoint.segment) + ".jsonl")

        let verification = try AuditVerifier.verify(directory: dir.audit)
        #expect(verification == AuditVerification(
            recordCount: records.count - lastRemovedSeq, lastHash: records.last!.hash, failure: nil,
            checkpointSeq: lastRemovedSeq))
        #expect(verification.text
            == "ok: \(records.count - lastRemovedSeq) records after the checkpoint at seq \(lastRemovedSeq), last hash \(records.last!.hash.hex)\n")
        #expect(dir.read("checkpoint.json") == "{\"hash\":\"\(checkpoint.hash.hex)\",\"objects\":\(carried.count),"
            + "\"objectsDigest\":\"\(checkpoint.objectsDigest.hex)\",\"segment\":\(checkpoint.segment),\"seq\":\(checkpoint.seq)}\n")
    }

    @Test func theReportJudgesObjectsStoredBeforeTheCheckpointByItsRecords() throws {
        let dir = TempDirectory()
        defer { dir.cleanup() }
        _ = try writeMixedLog(dir)
        _ = try AuditPruner.prune(directory: dir.audit, keepSegments: 1)
        let inventory = ["k1", "k2", "k3"].map {
            PersistedObject(folder: .disk, key: digest($0).hex, bytes: 100, tier: "public", path: "disk/public/\($0)")
        }
        let report = try AuditReconciler.report(
            stateDirectory: dir.path, inventory: inventory, allowedStorage: ["public": .disk, "private": .encryptedDisk])
        // k1 and k3 were stored before the checkpoint and are accounted for; k2 was evicted there.
        #expect(report.violations.map(\.kind) == [.unrecordedObject])
        #expect(report.violations.first?.key == digest("k2").hex)
        #expect(report.chain.isIntact)
        #expect(report.chain.checkpointSeq > 0)
        #expect(report.text.hasPrefix("audit: \(report.recordCount) records after the checkpoint at seq \(report.chain.checkpointSeq), chain intact, last hash "))
    }

    @Test func aSecondPruneCarriesTheFirstCheckpointsObjectsAndTheWriterGoesOn() throws {
        let dir = TempDirectory()
        defer { dir.cleanup() }
        let records = try writeMixedLog(dir)
        let first = try AuditPruner.prune(directory: dir.audit, keepSegments: 3)
        let log = try AuditLog(stateDirectory: dir.path, configuration: .init(maxSegmentBytes: 2_000))
        var more: [AuditRecord] = []
        for index in 26...40 { more.append(try log.append(storeEntry("k\(index)"))) }
        more.append(try log.append(AuditEntry(event: .purge, tier: name("public"), route: name("catalog"), storage: .disk,
                                              key: digest("k1"), reason: .purgeRoute, bytes: 100)))
        try log.close()
        #expect(more.first?.seq == records.count + 1)
        #expect(more.first?.prev == records.last?.hash)
        let second = try AuditPruner.prune(directory: dir.audit, keepSegments: 1)
        let checkpoint = try #require(second.checkpoint)
        #expect(second.seqs?.lowerBound == (first.checkpoint?.seq ?? 0) + 1)
        let carried = try objects(checkpoint, dir)
        #expect(carried.contains { $0.entry.key == digest("k4") })  // carried from the first
        #expect(!carried.contains { $0.entry.key == digest("k2") })
        let purgedInRemoved = (second.seqs?.contains(more.last!.seq) ?? false)
        #expect(carried.contains { $0.entry.key == digest("k1") } == !purgedInRemoved)
        // The first checkpoint's objects file is gone; the second's is in place.
        if let old = first.checkpoint { #expect(dir.read(old.objectsFileName) == "") }
        #expect(dir.read(checkpoint.objectsFileName) != "")
        #expect(try AuditVerifier.verify(directory: dir.audit).isIntact)
    }

    @Test func aBrokenChainIsNeverPrunedAndNothingIsRemoved() throws {
        let dir = TempDirectory()
        defer { dir.cleanup() }
        let records = try writeMixedLog(dir)
        let before = segments(dir)
        var lines = dir.lines(before[0])
        lines[1] = lines[1].replacingOccurrences(of: #""bytes":100"#, with: #""bytes":1"#)
        dir.writeLines(lines, before[0])
        let edited = try AuditRecord.parse(line: lines[1])
        #expect(throws: AuditError(.pruneRefused, "refusing to prune: hash-mismatch at seq 2 (\(before[0]) line 2): "
            + "hash \(records[1].hash.hex), computed \(edited.computedHash.hex)")) {
            try AuditPruner.prune(directory: dir.audit, keepSegments: 1)
        }
        #expect(segments(dir) == before)
        #expect(try AuditCheckpoint.read(directory: dir.audit) == nil)
    }

    @Test func keepingFewerThanOneOrMoreThanThereAre() throws {
        let dir = TempDirectory()
        defer { dir.cleanup() }
        _ = try writeMixedLog(dir)
        #expect(throws: AuditError(.invalidNumber, "keepSegments must be >= 1, got 0")) {
            try AuditPruner.prune(directory: dir.audit, keepSegments: 0)
        }
        let before = segments(dir)
        let nothing = try AuditPruner.prune(directory: dir.audit, keepSegments: 1_000)
        #expect(nothing == AuditPruner.Result(segments: 0, seqs: nil, bytes: 0, checkpoint: nil))
        #expect(segments(dir) == before)
    }

    /// A prune interrupted after its checkpoint, before it removed every segment: the records up to the
    /// checkpoint are skipped, the chain verifies, and the next prune removes the leftover.
    @Test func aSegmentAnInterruptedPruneLeftIsSkippedAndRemovedNextTime() throws {
        let dir = TempDirectory()
        defer { dir.cleanup() }
        let records = try writeMixedLog(dir)
        let before = segments(dir)
        let oldest = dir.read(before[0])
        let result = try AuditPruner.prune(directory: dir.audit, keepSegments: 2)
        dir.write(before[0], oldest)  // as if the prune had stopped before unlinking it
        let verification = try AuditVerifier.verify(directory: dir.audit)
        #expect(verification.isIntact)
        #expect(verification.recordCount == records.count - (result.checkpoint?.seq ?? 0))
        let again = try AuditPruner.prune(directory: dir.audit, keepSegments: 2)
        #expect(again.segments == 1)
        #expect(again.seqs == nil)
        #expect(again.bytes == oldest.utf8.count)
        #expect(again.checkpoint == result.checkpoint)
        #expect(segments(dir) == Array(before.suffix(3)))
    }

    @Test func anInvalidCheckpointIsABrokenChainAndRefusesAPrune() throws {
        let dir = TempDirectory()
        defer { dir.cleanup() }
        _ = try writeMixedLog(dir)
        dir.write("checkpoint.json", "{\"seq\":3}\n")
        let verification = try AuditVerifier.verify(directory: dir.audit)
        #expect(verification.failure == .init(
            kind: .invalidCheckpoint, seq: 0, file: "checkpoint.json", line: 1,
            detail: "keys must be exactly hash, objects, objectsDigest, segment, seq"))
        #expect(verification.text == "failed: invalid-checkpoint at seq 0 (checkpoint.json line 1): keys must be exactly "
            + "hash, objects, objectsDigest, segment, seq; 0 records verified\n")
        #expect(throws: AuditError(.pruneRefused, "refusing to prune: invalid-checkpoint: \(dir.audit)/checkpoint.json: "
            + "keys must be exactly hash, objects, objectsDigest, segment, seq")) {
            try AuditPruner.prune(directory: dir.audit, keepSegments: 1)
        }
    }

    @Test func anEditedOrMissingObjectsFileIsABrokenChain() throws {
        let dir = TempDirectory()
        defer { dir.cleanup() }
        _ = try writeMixedLog(dir)
        let checkpoint = try #require(try AuditPruner.prune(directory: dir.audit, keepSegments: 1).checkpoint)
        var lines = dir.lines(checkpoint.objectsFileName)
        lines.removeFirst()
        dir.writeLines(lines, checkpoint.objectsFileName)
        let rewritten = AuditDigest(SHA256.hash(lines.map { $0 + "\n" }.joined()))
        #expect(try AuditVerifier.verify(directory: dir.audit).failure == .init(
            kind: .invalidCheckpoint, seq: checkpoint.seq, file: checkpoint.objectsFileName, line: 1,
            detail: "\(lines.count) lines with SHA-256 \(rewritten.hex); checkpoint.json says \(checkpoint.objectCount) "
                + "and \(checkpoint.objectsDigest.hex)"))
        try FileManager.default.removeItem(atPath: dir.audit + "/" + checkpoint.objectsFileName)
        #expect(try AuditVerifier.verify(directory: dir.audit).failure?.detail == "missing (named by checkpoint.json)")
        // The report still judges what it can, with the broken chain first.
        let report = try AuditReconciler.report(stateDirectory: dir.path, inventory: [], allowedStorage: ["public": .disk])
        #expect(report.violations.map(\.kind) == [.brokenChain])
    }

    /// `prune.lock`, made by the writer: a reader holds it shared and waits while a prune holds it.
    @Test func aReaderWaitsForARunningPrune() throws {
        let dir = TempDirectory()
        defer { dir.cleanup() }
        _ = try writeMixedLog(dir)
        let fd = open(dir.audit + "/prune.lock", O_RDONLY)
        #expect(fd >= 0)
        #expect(flock(fd, LOCK_EX) == 0)  // as a prune would
        let done = Atomic<Bool>(false)
        let path = dir.audit
        let reader = Thread {
            _ = try? AuditVerifier.verify(directory: path)
            done.store(true, ordering: .releasing)
        }
        reader.start()
        usleep(100_000)
        let early = done.load(ordering: .acquiring)
        #expect(!early)  // still waiting for the lock
        flock(fd, LOCK_UN)
        close(fd)
        let deadline = Date().addingTimeInterval(10)
        while !done.load(ordering: .acquiring) && Date() < deadline { usleep(1_000) }
        let finished = done.load(ordering: .acquiring)
        #expect(finished)
    }

    /// A segment after the checkpoint whose records were replaced by old ones is not a leftover: the
    /// prune refuses, and nothing is removed.
    @Test func aTamperedSegmentAfterTheCheckpointIsNotRemovedAsALeftover() throws {
        let dir = TempDirectory()
        defer { dir.cleanup() }
        _ = try writeMixedLog(dir)
        let before = segments(dir)
        let oldest = dir.read(before[0])
        _ = try AuditPruner.prune(directory: dir.audit, keepSegments: 3)
        let kept = segments(dir)
        dir.write(kept[0], oldest)  // replayed records from before the checkpoint
        #expect(throws: AuditError.self) { try AuditPruner.prune(directory: dir.audit, keepSegments: 2) }
        #expect(segments(dir) == kept)
        #expect(try AuditVerifier.verify(directory: dir.audit).failure?.kind == .seqOrder)
    }

    /// A 304 that arrives after its entry was evicted writes the file again with an `update` record: a prune
    /// carries that update, and the file is accounted for.
    @Test func anUpdateAfterAnEvictionIsCarriedAsTheFilesRecord() throws {
        let dir = TempDirectory()
        defer { dir.cleanup() }
        let log = try AuditLog(stateDirectory: dir.path, configuration: .init(maxSegmentBytes: 1_500))
        _ = try log.append(storeEntry("k"))
        _ = try log.append(AuditEntry(event: .evict, tier: name("public"), route: name("catalog"), storage: .disk,
                                      key: digest("k"), reason: try ReasonCode("over-budget"), bytes: 100))
        let update = try log.append(AuditEntry(event: .update, tier: name("public"), route: name("catalog"), storage: .disk,
                                               key: digest("k"), reason: .tierStorage, bytes: 100, ttl: 60))
        for index in 1...12 { _ = try log.append(storeEntry("filler\(index)")) }
        try log.close()
        let inventory = [PersistedObject(folder: .disk, key: digest("k").hex, bytes: 100, tier: "public")]
        let allowed: [String: AuditStorage] = ["public": .disk]
        #expect(try AuditReconciler.report(stateDirectory: dir.path, inventory: inventory, allowedStorage: allowed).isClean)
        let result = try AuditPruner.prune(directory: dir.audit, keepSegments: 1)
        #expect((result.seqs?.upperBound ?? 0) > update.seq)
        let carried = try objects(try #require(result.checkpoint), dir)
        #expect(carried.filter { $0.entry.key == digest("k") } == [update])
        #expect(try AuditReconciler.report(stateDirectory: dir.path, inventory: inventory, allowedStorage: allowed).isClean)
    }

    /// A carried `store` of an object still on disk is judged by the policies of the audit, as if its record
    /// were still in the log.
    @Test func aCarriedStoreTheAuditsPoliciesForbidIsStillAViolation() throws {
        let dir = TempDirectory()
        defer { dir.cleanup() }
        let records = try writeMixedLog(dir)
        _ = try AuditPruner.prune(directory: dir.audit, keepSegments: 1)
        let inventory = [PersistedObject(folder: .disk, key: digest("k1").hex, bytes: 100, tier: "public")]
        let report = try AuditReconciler.report(stateDirectory: dir.path, inventory: inventory, allowedStorage: ["public": .memory])
        let wider = report.violations.filter { $0.kind == .storeWiderThanTier }
        #expect(wider.first?.seq == records[0].seq)
        #expect(wider.first?.key == digest("k1").hex)
        #expect(report.violations.contains { $0.kind == .diskNotAllowed })
    }

    /// A record at the end of the segments to remove edited and re-hashed: they verify on their own, but
    /// the first record kept no longer links to them. The prune refuses instead of removing the break.
    @Test func aBreakBetweenTheRemovedAndTheKeptSegmentsIsNeverPruned() throws {
        let dir = TempDirectory()
        defer { dir.cleanup() }
        _ = try writeMixedLog(dir)
        let before = segments(dir)
        let lastRemoved = before[before.count - 3]  // keeping one rotated segment and the active file
        var lines = dir.lines(lastRemoved)
        let original = try AuditRecord.parse(line: lines[lines.count - 1])
        var entry = original.entry
        entry.bytes = 1
        let forged = AuditRecord(seq: original.seq, time: original.time, entry: entry, prev: original.prev)
        lines[lines.count - 1] = forged.canonicalJSON(includingHash: true)
        dir.writeLines(lines, lastRemoved)
        let kept = before[before.count - 2]
        #expect(throws: AuditError(.pruneRefused, "refusing to prune: the first record kept does not continue the chain: "
            + "prev-mismatch at seq \(original.seq + 1) (\(kept) line 1): prev \(original.hash.hex) is not the previous hash \(forged.hash.hex)")) {
            try AuditPruner.prune(directory: dir.audit, keepSegments: 1)
        }
        #expect(segments(dir) == before)
        #expect(try AuditCheckpoint.read(directory: dir.audit) == nil)
    }
}
