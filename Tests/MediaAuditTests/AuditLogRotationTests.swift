import Foundation
import MediaAudit
import Testing

@Suite struct AuditLogRotationTests {
    static let small = AuditLog.Configuration(maxSegmentBytes: 1000)

    func write(_ dir: TempDirectory, count: Int) throws -> [AuditRecord] {
        let log = try AuditLog(stateDirectory: dir.path, configuration: Self.small, clock: TestClock().clock)
        let records = try (1...count).map { try log.append(storeEntry("k\($0)")) }
        try log.close()
        return records
    }

    @Test func rotatesBySizeAndContinuesTheChain() throws {
        let dir = TempDirectory()
        defer { dir.cleanup() }
        let records = try write(dir, count: 5)
        let files = AuditReader.files(directory: dir.audit).map { $0.split(separator: "/").last.map(String.init)! }
        #expect(files == ["audit-000001.jsonl", "audit-000002.jsonl", "audit.jsonl"])
        #expect(dir.read("audit-000001.jsonl") == records[0].line + records[1].line)
        #expect(dir.read("audit-000002.jsonl") == records[2].line + records[3].line)
        #expect(dir.read("audit.jsonl") == records[4].line)
        #expect(records[2].prev == records[1].hash)
        #expect(records[4].prev == records[3].hash)
        #expect(try AuditVerifier.verify(directory: dir.audit)
            == AuditVerification(recordCount: 5, lastHash: records[4].hash, failure: nil))
        #expect(try AuditReader.records(directory: dir.audit) == records)
    }

    @Test func reopenAfterRotationContinuesNumbering() throws {
        let dir = TempDirectory()
        defer { dir.cleanup() }
        let first = try write(dir, count: 4)
        let log = try AuditLog(stateDirectory: dir.path, configuration: Self.small, clock: TestClock().clock)
        #expect(log.openReport == AuditLog.OpenReport(
            tornTailBytes: 0, lastSeq: 4, lastHash: first[3].hash, rotatedSegments: 1))
        let more = try (5...7).map { try log.append(storeEntry("k\($0)")) }
        try log.close()
        #expect(more.map(\.seq) == [5, 6, 7])
        #expect(more[0].prev == first[3].hash)
        #expect(dir.read("audit-000002.jsonl") == first[2].line + first[3].line)
        #expect(dir.read("audit-000003.jsonl") == more[0].line + more[1].line)
        #expect(try AuditVerifier.verify(directory: dir.audit).recordCount == 7)
    }

    @Test func resumesFromLastSegmentWhenActiveFileIsMissing() throws {
        let dir = TempDirectory()
        defer { dir.cleanup() }
        let records = try write(dir, count: 4)
        try FileManager.default.removeItem(atPath: dir.active)
        let log = try AuditLog(stateDirectory: dir.path, configuration: Self.small, clock: TestClock().clock)
        #expect(log.openReport.lastSeq == 2)
        #expect(log.openReport.lastHash == records[1].hash)
        try log.close()
    }

    @Test func deletedSegmentIsASeqGap() throws {
        let dir = TempDirectory()
        defer { dir.cleanup() }
        _ = try write(dir, count: 5)
        try FileManager.default.removeItem(atPath: dir.audit + "/audit-000001.jsonl")
        #expect(try AuditVerifier.verify(directory: dir.audit) == AuditVerification(
            recordCount: 0, lastHash: .zero,
            failure: .init(kind: .seqGap, seq: 1, file: "audit-000002.jsonl", line: 1, detail: "expected seq 1, found 3")))
    }

    @Test func tornOnlyLineOfActiveFileFallsBackToLastSegment() throws {
        let dir = TempDirectory()
        defer { dir.cleanup() }
        let records = try write(dir, count: 3)
        let torn = String(records[2].line.prefix(100))
        dir.write("audit.jsonl", torn)
        let log = try AuditLog(stateDirectory: dir.path, configuration: Self.small, clock: TestClock().clock)
        #expect(log.openReport == AuditLog.OpenReport(
            tornTailBytes: 100, lastSeq: 2, lastHash: records[1].hash, rotatedSegments: 1))
        let next = try log.append(AuditEntry(event: .start, reason: .repairedTornTail, bytes: 100))
        try log.close()
        #expect(next.seq == 3)
        #expect(next.prev == records[1].hash)
        #expect(try AuditVerifier.verify(directory: dir.audit).recordCount == 3)
    }

    @Test func readerListsLinesAcrossSegmentsInChainOrder() throws {
        let dir = TempDirectory()
        defer { dir.cleanup() }
        let records = try write(dir, count: 3)
        dir.write("audit.jsonl", dir.read("audit.jsonl") + "tail")
        let lines = try AuditReader.lines(directory: dir.audit)
        #expect(lines.map(\.file) == ["audit-000001.jsonl", "audit-000001.jsonl", "audit.jsonl", "audit.jsonl"])
        #expect(lines.map(\.number) == [1, 2, 1, 2])
        #expect(lines.map(\.terminated) == [true, true, true, false])
        #expect(lines[3].text == "tail")
        #expect(try AuditReader.records(directory: dir.audit) == records)
    }
}
