import MediaAudit
import Testing

@Suite struct AuditRecordingTests {
    @Test func inMemoryLogChainsLikeTheFileLog() throws {
        let clock = TestClock()
        let memory = InMemoryAuditLog(clock: clock.clock)
        let recorder: any AuditRecording = memory
        let first = try recorder.append(try CanonicalJSONTests.firstEntry())
        clock.advance(milliseconds: 1)
        let second = try recorder.append(contentsOf: [try CanonicalJSONTests.secondEntry()])
        try recorder.flush()
        #expect(first.hash.hex == CanonicalJSONTests.firstHash)
        #expect(second[0].hash.hex == CanonicalJSONTests.secondHash)
        #expect(memory.records == [first, second[0]])
        #expect(throws: AuditError(.invalidNumber, "ttl must be >= 0, got -1")) {
            try recorder.append(AuditEntry(event: .store, ttl: -1))
        }
        #expect(memory.records.count == 2)
        #expect(AuditVerifier.verify(records: memory.records)
            == AuditVerification(recordCount: 2, lastHash: second[0].hash, failure: nil))
        #expect(AuditVerifier.verify(records: [second[0]]) == AuditVerification(
            recordCount: 0, lastHash: .zero,
            failure: .init(kind: .seqGap, seq: 1, file: "memory", line: 1, detail: "expected seq 1, found 2")))
    }

    @Test func removalBatchIsPerKeyRecordsThenASummary() throws {
        let removed = [
            AuditEntry(event: .store, tier: name("private"), route: name("receipts"), storage: .encryptedDisk,
                       key: digest("a"), scope: .partitioned(digest("U1")), reason: .tierStorage, bytes: 10),
            AuditEntry(event: .store, tier: name("private"), route: name("receipts"), storage: .encryptedDisk,
                       key: digest("b"), scope: .partitioned(digest("U1")), bytes: 20),
        ]
        let batch = AuditEntry.removalBatch(
            event: .purge, reason: .purgeCredential, tier: name("private"), scope: .partitioned(digest("U1")),
            removed: removed)
        #expect(batch == [
            AuditEntry(event: .purge, tier: name("private"), route: name("receipts"), storage: .encryptedDisk,
                       key: digest("a"), scope: .partitioned(digest("U1")), reason: .purgeCredential, bytes: 10),
            AuditEntry(event: .purge, tier: name("private"), route: name("receipts"), storage: .encryptedDisk,
                       key: digest("b"), scope: .partitioned(digest("U1")), reason: .purgeCredential, bytes: 20),
            AuditEntry(event: .purge, tier: name("private"), scope: .partitioned(digest("U1")),
                       reason: .purgeCredential, count: 2),
        ])
        let log = InMemoryAuditLog(clock: TestClock().clock)
        #expect(try log.append(contentsOf: batch).map(\.seq) == [1, 2, 3])
        let report = AuditReconciler.report(
            records: log.records, verification: AuditVerifier.verify(records: log.records),
            inventory: [], allowedStorage: ["private": .encryptedDisk])
        #expect(report.tiers.first?.rows.first?.purged == 2)
        #expect(report.isClean)
    }
}
