import Foundation
import Glibc
import MediaAudit
import MediaTestSupport
import Testing

/// ``RecoveringAuditLog`` over a real ``AuditLog`` whose file writes an injected ``FailingFileWriter`` makes fail
/// (EPERM, a torn ENOSPC write): the outage is reported once, appends are refused without touching the file, retries
/// back off on an injected scheduler and clock, and the first record after the outage is its `gap` record.
@Suite struct RecoveringAuditLogTests {
    typealias World = RecoveringWorld<FailingFileWriter>

    static func at(_ offset: Int64) -> AuditTime { AuditTime(millisecondsSinceEpoch: TestClock.start + offset) }

    @Test func anEPERMStopsWritingUntilARetryWritesTheGapRecordFirst() throws {
        let world = try World(writer: FailingFileWriter())
        defer { world.close() }
        let first = try world.recovering.append(storeEntry("k1"))
        world.writer.fail(EPERM)
        world.clock.advance(milliseconds: 1000)
        let eperm = AuditError(.io, "write \(world.dir.active): Operation not permitted (errno 1)", errno: 1,
                               operation: "write \(world.dir.active)")
        #expect(throws: eperm) { try world.recovering.append(storeEntry("k2")) }
        let started = try #require(world.recovering.outage)
        #expect(started.since == Self.at(1000))
        #expect(started.nextRetry == Self.at(2000))
        #expect(world.events.all == [.failed(started, retryInMilliseconds: 1000)])
        #expect(world.scheduler.delays == [1000])
        #expect(world.recovering.outageCount == 1)

        // Failing: refused at once, counted, the file untouched.
        let calls = world.writer.calls
        world.clock.advance(milliseconds: 10)
        let refused = AuditError(.unavailable, "the audit log cannot be written since 2026-11-29T11:07:16.123Z "
            + "(EPERM (1) from write \(world.dir.active)); next retry at 2026-11-29T11:07:17.123Z")
        #expect(throws: refused) { try world.recovering.append(AuditEntry(event: .skip, reason: .auditUnavailable)) }
        #expect(throws: refused) { try world.recovering.append(AuditEntry(event: .expire, key: digest("k1"))) }
        #expect(throws: refused) { try world.recovering.flush() }
        #expect(world.writer.calls == calls)
        #expect(world.recovering.outage?.refusedDecisions == 2)
        #expect(world.recovering.outage?.refusedRecords == 3)

        // A retry while the disk still refuses: silent, and the next one comes twice as late.
        world.clock.advance(milliseconds: 990)
        world.scheduler.fire()
        #expect(world.scheduler.delays == [1000, 2000])
        #expect(world.recovering.outage?.failedRetries == 1)
        #expect(world.recovering.outage?.nextRetry == Self.at(4000))
        #expect(world.events.all.count == 1)

        // Writable again: the next retry writes the gap record, then appends go through.
        world.writer.heal()
        world.clock.advance(milliseconds: 2000)
        world.scheduler.fire()
        #expect(world.recovering.outage == nil)
        #expect(world.scheduler.pendingCount == 0)
        let gapEntry = AuditEntry(event: .gap, reason: try ReasonCode("audit-unavailable:eperm"), count: 2,
                                  since: Self.at(1000))
        let gap = AuditRecord(seq: 2, time: Self.at(4000), entry: gapEntry, prev: first.hash)
        guard case .recovered(let outage, let written) = world.events.all.last else {
            Issue.record("no recovery event: \(world.events.all)")
            return
        }
        #expect(written == gap)
        #expect(outage.since == started.since)
        #expect(outage.refusedDecisions == 2)
        #expect(outage.refusedRecords == 3)
        #expect(outage.failedRetries == 1)
        #expect(world.events.all.count == 2)
        let third = try world.recovering.append(storeEntry("k3"))
        #expect(third.seq == 3)
        #expect(third.prev == gap.hash)
        try world.log.close()
        #expect(world.dir.lines() == [first.line, gap.line, third.line].map { String($0.dropLast()) })
        #expect(try AuditVerifier.verify(stateDirectory: world.dir.path)
            == AuditVerification(recordCount: 3, lastHash: third.hash, failure: nil))
    }

    /// A write that fails after some bytes (ENOSPC) leaves nothing: the partial line is truncated away.
    @Test func aTornWriteIsTruncatedAwayAndTheChainContinues() throws {
        let world = try World(writer: FailingFileWriter())
        defer { world.close() }
        let first = try world.recovering.append(storeEntry("k1"))
        let before = world.dir.read("audit.jsonl")
        world.writer.fail(ENOSPC, partialBytes: 40)
        #expect(throws: AuditError.self) { try world.recovering.append(storeEntry("k2")) }
        #expect(world.dir.read("audit.jsonl") == before)
        #expect(world.log.isOpen)
        #expect(world.recovering.outage?.reason.rawValue == "audit-unavailable:enospc")
        world.writer.heal()
        world.clock.advance(milliseconds: 1000)
        world.scheduler.fire()
        let next = try world.recovering.append(storeEntry("k3"))
        #expect(next.seq == 3)
        try world.log.close()
        let records = try AuditReader.records(directory: world.dir.audit)
        #expect(records.map(\.event) == [.store, .gap, .store])
        #expect(records[1].prev == first.hash)
        #expect(records[1].count == 1)
        #expect(try AuditVerifier.verify(stateDirectory: world.dir.path).failure == nil)
    }

    /// A graceful stop retries at once: writable again, the gap record comes before `stop`.
    @Test func retryNowWritesTheGapRecordWhateverTheBackoff() throws {
        let world = try World(writer: FailingFileWriter())
        defer { world.close() }
        try world.recovering.append(storeEntry("k1"))
        world.writer.fail(EPERM)
        _ = try? world.recovering.append(storeEntry("k2"))
        world.writer.heal()
        world.clock.advance(milliseconds: 300)
        world.recovering.retryNow()
        try world.recovering.append(AuditEntry(event: .stop))
        world.recovering.close()
        #expect(world.events.all.count == 2)
        #expect(world.scheduler.isCancelled)
        try world.log.close()
        let records = try AuditReader.records(directory: world.dir.audit)
        #expect(records.map(\.event) == [.store, .gap, .stop])
        #expect(records[1].since == Self.at(0))
        #expect(records[1].time == Self.at(300))
        // The retry the first failure scheduled finds nothing to do.
        world.scheduler.fire()
        #expect(try AuditReader.records(directory: world.dir.audit).count == 3)
    }

    /// Closed while still failing: reported, no more retries, no record written.
    @Test func closingWhileFailingIsReported() throws {
        let world = try World(writer: FailingFileWriter())
        defer { world.close() }
        try world.recovering.append(storeEntry("k1"))
        world.writer.fail(EPERM)
        _ = try? world.recovering.append(storeEntry("k2"))
        world.recovering.retryNow()
        #expect(throws: AuditError.self) { try world.recovering.append(AuditEntry(event: .stop)) }
        let outage = try #require(world.recovering.outage)
        #expect(outage.failedRetries == 1)
        #expect(outage.refusedRecords == 2)
        world.recovering.close()
        #expect(world.events.all.last == .closedWhileFailing(outage))
        #expect(world.events.all.count == 2)
        #expect(world.scheduler.pendingCount == 0)
        try world.log.close()
        #expect(try AuditReader.records(directory: world.dir.audit).map(\.event) == [.store])
    }

    /// Refused entries and a closed log are not outages.
    @Test func otherErrorsPassThroughWithoutAnOutage() throws {
        let world = try World(writer: FailingFileWriter())
        defer { world.close() }
        #expect(throws: AuditError(.invalidNumber, "bytes must be >= 0, got -1")) {
            try world.recovering.append(AuditEntry(event: .store, bytes: -1))
        }
        try world.log.close()
        #expect(throws: AuditError(.closed, "append after close of \(world.dir.active)")) {
            try world.recovering.append(storeEntry("k1"))
        }
        #expect(world.recovering.outage == nil)
        #expect(world.events.all.isEmpty)
        #expect(throws: AuditError(.closed, "reopen after close of \(world.dir.active)")) { try world.log.reopenIfNeeded() }
    }
}

/// What the lock of ``RecoveringAuditLog`` covers: appends (one at a time, as the log's own lock does), never a
/// reader of its state, and a single append reaches the wrapped log as a single append.
@Suite struct RecoveringAuditLogLockTests {
    /// A recorder whose single appends wait for ``release`` once ``entered`` is signalled.
    final class BlockingRecorder: AuditRecording {
        let inner = InMemoryAuditLog()
        let entered = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)

        func append(_ entry: AuditEntry) throws -> AuditRecord {
            entered.signal()
            release.wait()
            return try inner.append(entry)
        }

        func append(contentsOf entries: [AuditEntry]) throws -> [AuditRecord] { try inner.append(contentsOf: entries) }
        func flush() throws {}
    }

    @Test func theStateIsReadWithoutWaitingForAnAppend() throws {
        let recorder = BlockingRecorder()
        let recovering = RecoveringAuditLog(recorder, scheduler: ManualRetryScheduler())
        let done = DispatchSemaphore(value: 0)
        Thread {
            _ = try? recovering.append(storeEntry("k1"))
            done.signal()
        }.start()
        #expect(recorder.entered.wait(timeout: .now() + 10) == .success)
        // The append holds the lock inside the recorder: the state is still read at once.
        #expect(recovering.outage == nil)
        #expect(recovering.outageCount == 0)
        recorder.release.signal()
        #expect(done.wait(timeout: .now() + 10) == .success)
        #expect(recorder.inner.records.map(\.event) == [.store])
    }
}
