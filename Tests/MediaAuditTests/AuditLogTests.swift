import Foundation
import Glibc
import MediaAudit
import Testing

@Suite struct AuditLogTests {
    @Test func writesTheExactChainedLines() throws {
        let dir = TempDirectory()
        defer { dir.cleanup() }
        let clock = TestClock()
        let log = try AuditLog(stateDirectory: dir.path, clock: clock.clock)
        let first = try log.append(try CanonicalJSONTests.firstEntry())
        clock.advance(milliseconds: 1)
        let second = try log.append(try CanonicalJSONTests.secondEntry())
        try log.close()
        #expect(first.seq == 1)
        #expect(first.prev == .zero)
        #expect(second.seq == 2)
        #expect(second.prev == first.hash)
        #expect(second.hash.hex == CanonicalJSONTests.secondHash)
        #expect(dir.read("audit.jsonl") == CanonicalJSONTests.firstLine + "\n" + second.line)
        #expect(log.lastSeq == 2)
        #expect(log.lastHash == second.hash)
        #expect(log.openReport == AuditLog.OpenReport(tornTailBytes: 0, lastSeq: 0, lastHash: .zero, rotatedSegments: 0))
    }

    @Test func fileIs0600AndFolder0700() throws {
        let dir = TempDirectory()
        defer { dir.cleanup() }
        try writeLog(dir, count: 1)
        var info = stat()
        #expect(stat(dir.active, &info) == 0)
        #expect(info.st_mode & 0o777 == 0o600)
        #expect(stat(dir.audit, &info) == 0)
        #expect(info.st_mode & 0o777 == 0o700)
    }

    @Test func reopenContinuesSeqAndChain() throws {
        let dir = TempDirectory()
        defer { dir.cleanup() }
        let records = try writeLog(dir, count: 3)
        let log = try AuditLog(stateDirectory: dir.path, clock: TestClock().clock)
        #expect(log.openReport == AuditLog.OpenReport(
            tornTailBytes: 0, lastSeq: 3, lastHash: records[2].hash, rotatedSegments: 0))
        let next = try log.append(AuditEntry(event: .start))
        try log.close()
        #expect(next.seq == 4)
        #expect(next.prev == records[2].hash)
        let verification = try AuditVerifier.verify(stateDirectory: dir.path)
        #expect(verification == AuditVerification(recordCount: 4, lastHash: next.hash, failure: nil))
    }

    @Test func tornTailWithoutNewlineIsTruncatedAndReported() throws {
        let dir = TempDirectory()
        defer { dir.cleanup() }
        let records = try writeLog(dir, count: 3)
        let intact = dir.read("audit.jsonl")
        dir.write("audit.jsonl", intact + #"{"bytes":10"#)
        let log = try AuditLog(stateDirectory: dir.path, clock: TestClock().clock)
        #expect(log.openReport.tornTailBytes == 11)
        #expect(log.openReport.lastSeq == 3)
        #expect(dir.read("audit.jsonl") == intact)
        let start = try log.append(AuditEntry(event: .start, reason: .repairedTornTail, bytes: log.openReport.tornTailBytes))
        try log.close()
        #expect(start.seq == 4)
        #expect(start.prev == records[2].hash)
        #expect(try AuditVerifier.verify(stateDirectory: dir.path).failure == nil)
        #expect(try AuditReader.records(directory: dir.audit).count == 4)
    }

    @Test func unparsableLastLineIsTruncated() throws {
        let dir = TempDirectory()
        defer { dir.cleanup() }
        try writeLog(dir, count: 2)
        let intact = dir.read("audit.jsonl")
        dir.write("audit.jsonl", intact + "{\"seq\":3,garbage\n")
        let log = try AuditLog(stateDirectory: dir.path, clock: TestClock().clock)
        #expect(log.openReport.tornTailBytes == 17)
        #expect(log.openReport.lastSeq == 2)
        #expect(dir.read("audit.jsonl") == intact)
        try log.close()
    }

    @Test func corruptLogIsRefused() throws {
        let dir = TempDirectory()
        defer { dir.cleanup() }
        try writeLog(dir, count: 2)
        dir.write("audit.jsonl", dir.read("audit.jsonl") + "junk\nmore junk\n")
        #expect(throws: AuditError(.corruptLog, "the last complete line of \(dir.active) is not a record")) {
            try AuditLog(stateDirectory: dir.path, clock: TestClock().clock)
        }
    }

    @Test func appendAfterCloseIsRefused() throws {
        let dir = TempDirectory()
        defer { dir.cleanup() }
        let log = try AuditLog(stateDirectory: dir.path, clock: TestClock().clock)
        try log.close()
        try log.close()
        #expect(throws: AuditError(.closed, "append after close of \(dir.active)")) {
            try log.append(AuditEntry(event: .stop))
        }
        #expect(throws: AuditError(.closed, "flush after close of \(dir.active)")) { try log.flush() }
    }

    @Test func invalidEntryWritesNothing() throws {
        let dir = TempDirectory()
        defer { dir.cleanup() }
        let log = try AuditLog(stateDirectory: dir.path, clock: TestClock().clock)
        #expect(throws: AuditError(.invalidNumber, "bytes must be >= 0, got -3")) {
            try log.append(contentsOf: [storeEntry("a"), AuditEntry(event: .store, bytes: -3)])
        }
        #expect(log.lastSeq == 0)
        try log.close()
        #expect(dir.read("audit.jsonl") == "")
    }

    @Test func fsyncIsBatchedByCountAndInterval() throws {
        let dir = TempDirectory()
        defer { dir.cleanup() }
        let clock = TestClock()
        let log = try AuditLog(
            stateDirectory: dir.path,
            configuration: .init(syncEveryRecords: 3, syncIntervalMilliseconds: 1000, syncsInBackground: false),
            clock: clock.clock)
        try log.append(storeEntry("a"))
        try log.append(storeEntry("b"))
        #expect(log.unsyncedRecords == 2)
        try log.append(storeEntry("c"))
        #expect(log.unsyncedRecords == 0)
        try log.append(storeEntry("d"))
        clock.advance(milliseconds: 999)
        #expect(log.unsyncedRecords == 1)
        try log.append(storeEntry("e"))
        #expect(log.unsyncedRecords == 2)
        clock.advance(milliseconds: 1001)
        try log.append(storeEntry("f"))
        #expect(log.unsyncedRecords == 0)
        try log.append(storeEntry("g"))
        try log.flush()
        #expect(log.unsyncedRecords == 0)
        try log.close()
    }

    @Test func batchAppendIsConsecutive() throws {
        let dir = TempDirectory()
        defer { dir.cleanup() }
        let log = try AuditLog(stateDirectory: dir.path, clock: TestClock().clock)
        let records = try log.append(contentsOf: [storeEntry("a"), storeEntry("b"), storeEntry("c")])
        try log.close()
        #expect(records.map(\.seq) == [1, 2, 3])
        #expect(records[1].prev == records[0].hash)
        #expect(records[2].prev == records[1].hash)
        #expect(dir.read("audit.jsonl") == records.map(\.line).joined())
    }
}

@Suite struct AuditLogLockTests {
    @Test func secondWriterOnTheSameFolderIsRefusedUntilClose() throws {
        let dir = TempDirectory()
        defer { dir.cleanup() }
        let first = try AuditLog(stateDirectory: dir.path, clock: TestClock().clock)
        #expect(throws: AuditError(.locked, "\(dir.audit) is already open for writing by another AuditLog")) {
            try AuditLog(stateDirectory: dir.path, clock: TestClock().clock)
        }
        try first.append(storeEntry("a"))
        try first.close()
        let second = try AuditLog(stateDirectory: dir.path, clock: TestClock().clock)
        #expect(second.openReport.lastSeq == 1)
        try second.close()
    }

    @Test func rotationNeverReplacesAnExistingSegment() throws {
        let dir = TempDirectory()
        defer { dir.cleanup() }
        let log = try AuditLog(
            stateDirectory: dir.path, configuration: .init(maxSegmentBytes: 1000), clock: TestClock().clock)
        try log.append(storeEntry("a"))
        try log.append(storeEntry("b"))
        dir.write("audit-000001.jsonl", "planted\n")
        #expect(throws: AuditError(.io, "rename \(dir.audit)/audit-000001.jsonl: File exists (errno 17)")) {
            try log.append(storeEntry("c"))
        }
        #expect(log.lastSeq == 2)
        #expect(dir.read("audit-000001.jsonl") == "planted\n")
        try log.close()
    }
}
