import Foundation
@testable import MediaAudit
import Testing

/// The log is streamed, not loaded: lines split across read chunks and files come out whole and in
/// chain order; the chain check and the reconciliation give, line by line, what the collected forms give.
@Suite struct AuditStreamingTests {
    @Test(arguments: [1, 2, 7, 64, 1 << 20])
    func linesAcrossChunksAndFilesComeOutWholeInChainOrder(chunkBytes: Int) throws {
        let dir = TempDirectory()
        defer { dir.cleanup() }
        try FileManager.default.createDirectory(atPath: dir.audit, withIntermediateDirectories: true)
        dir.write("audit-000002.jsonl", "third\n\nfifth, after an empty line\n")
        dir.write("audit-000001.jsonl", "first\nsecond, a longer line than the smallest chunks\n")
        dir.write("audit.jsonl", "sixth\ntorn")
        dir.write("audit-1.jsonl", "not a segment name\n")
        var seen: [AuditReader.Line] = []
        try AuditReader.forEachLine(directory: dir.audit, chunkBytes: chunkBytes) { seen.append($0) }
        #expect(seen == [
            .init(file: "audit-000001.jsonl", number: 1, text: "first", terminated: true),
            .init(file: "audit-000001.jsonl", number: 2, text: "second, a longer line than the smallest chunks",
                  terminated: true),
            .init(file: "audit-000002.jsonl", number: 1, text: "third", terminated: true),
            .init(file: "audit-000002.jsonl", number: 2, text: "", terminated: true),
            .init(file: "audit-000002.jsonl", number: 3, text: "fifth, after an empty line", terminated: true),
            .init(file: "audit.jsonl", number: 1, text: "sixth", terminated: true),
            .init(file: "audit.jsonl", number: 2, text: "torn", terminated: false),
        ])
    }

    @Test func anEmptyFileAndAMissingFolderGiveNoLines() throws {
        let dir = TempDirectory()
        defer { dir.cleanup() }
        var count = 0
        try AuditReader.forEachLine(directory: dir.audit) { _ in count += 1 }
        try FileManager.default.createDirectory(atPath: dir.audit, withIntermediateDirectories: true)
        dir.write("audit.jsonl", "")
        try AuditReader.forEachLine(directory: dir.audit) { _ in count += 1 }
        #expect(count == 0)
    }

    @Test func anUnreadableFileIsAnIOErrorNamingIt() throws {
        let dir = TempDirectory()
        defer { dir.cleanup() }
        try FileManager.default.createDirectory(atPath: dir.audit + "/audit.jsonl", withIntermediateDirectories: true)
        #expect(throws: AuditError(.io, "read \(dir.audit)/audit.jsonl: Is a directory (errno 21)")) {
            try AuditReader.forEachLine(directory: dir.audit) { _ in }
        }
    }

    /// A missing `seq` is a gap unless it turns up later, in this file or the next one.
    @Test func aSeqFoundInALaterSegmentMakesTheGapAnOrderFailure() throws {
        let dir = TempDirectory()
        defer { dir.cleanup() }
        let records = try writeLog(dir, count: 6)
        let lines = dir.lines()
        try FileManager.default.removeItem(atPath: dir.active)
        dir.writeLines([lines[0], lines[1], lines[3]], "audit-000001.jsonl")
        dir.writeLines([lines[4], lines[2], lines[5]])
        #expect(try AuditVerifier.verify(stateDirectory: dir.path) == AuditVerification(
            recordCount: 2, lastHash: records[1].hash,
            failure: .init(kind: .seqOrder, seq: 3, file: "audit-000001.jsonl", line: 3,
                           detail: "expected seq 3, found 4")))
        dir.writeLines([lines[4], lines[5]])
        #expect(try AuditVerifier.verify(stateDirectory: dir.path).failure?.kind == .seqGap)
    }

    /// The streamed report equals the one built from collected records, across segments and with a
    /// broken chain, a store wider than its tier, a removed object still present and an unrecorded one.
    @Test func theStreamedReportEqualsTheCollectedOne() throws {
        let dir = TempDirectory()
        defer { dir.cleanup() }
        let log = try AuditLog(stateDirectory: dir.path, configuration: .init(maxSegmentBytes: 1_200))
        for index in 1...8 { _ = try log.append(storeEntry("k\(index)")) }
        _ = try log.append(storeEntry("wide", tier: "private", route: "receipts"))
        _ = try log.append(AuditEntry(
            event: .evict, tier: name("public"), route: name("catalog"), storage: .disk, key: digest("k2"),
            reason: try ReasonCode("over-budget"), bytes: 100))
        try log.close()
        #expect(AuditReader.files(directory: dir.audit).count > 2)
        var lines = dir.lines()
        lines.append(lines.last!)  // a duplicated last line: seq-order
        dir.writeLines(lines)
        let inventory = [
            PersistedObject(folder: .disk, key: digest("k2").hex, bytes: 100, tier: "public", isSealed: false),
            PersistedObject(folder: .disk, key: digest("k5").hex, bytes: 100, tier: "public", isSealed: false),
            PersistedObject(folder: .disk, key: digest("stray").hex, bytes: 7, tier: "public", isSealed: false),
        ]
        let allowed: [String: AuditStorage] = ["public": .disk, "private": .memory]
        let streamed = try AuditReconciler.report(stateDirectory: dir.path, inventory: inventory, allowedStorage: allowed)
        let collected = AuditReconciler.report(
            records: try AuditReader.records(directory: dir.audit),
            verification: try AuditVerifier.verify(directory: dir.audit), inventory: inventory, allowedStorage: allowed)
        #expect(streamed == collected)
        #expect(streamed.recordCount == 11)
        #expect(streamed.violations.map(\.kind) == [
            .brokenChain, .storeWiderThanTier, .removedObjectPresent, .unrecordedObject])
    }

    /// The writer rotates between the listing and the read: the segment that appeared is read before the
    /// new active file, so the chain has no gap (before, a live verify could report a false seq-gap).
    @Test func aRotationAfterTheListingIsReadInOrder() throws {
        let dir = TempDirectory()
        defer { dir.cleanup() }
        let first = try writeLog(dir, count: 6)
        let listed = AuditReader.files(directory: dir.audit)
        #expect(listed.map { String($0.split(separator: "/").last!) } == ["audit.jsonl"])
        let log = try AuditLog(stateDirectory: dir.path, configuration: .init(maxSegmentBytes: 1))
        let more = try (1...3).map { try log.append(storeEntry("later\($0)")) }
        try log.close()
        #expect(AuditReader.files(directory: dir.audit).count == 4)  // audit-000001…3 and audit.jsonl
        var check = AuditChainCheck()
        var seqs: [Int] = []
        try AuditReader.forEachLine(files: listed) { line in
            if let record = check.check(line) { seqs.append(record.seq) }
        }
        #expect(seqs == Array(1...(first.count + more.count)))
        #expect(check.verification == AuditVerification(recordCount: 9, lastHash: more.last!.hash, failure: nil))
    }
}
