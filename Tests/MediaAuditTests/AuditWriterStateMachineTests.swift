import MediaAudit
import Testing

/// ``AuditWriterStateMachine``: writing → failing → writing, the backoff, what an outage counts, and the actions
/// (each change of state reported once). Pure: times are parameters.
@Suite struct AuditWriterStateMachineTests {
    static let t0 = TestClock.start
    static let eperm = AuditError(.io, "write /state/audit/audit.jsonl: Operation not permitted (errno 1)", errno: 1,
                                  operation: "write /state/audit/audit.jsonl")

    static func skip() -> AuditEntry { AuditEntry(event: .skip, reason: .auditUnavailable) }

    /// The outage of an EPERM at ``t0`` that has refused `decisions` skips.
    static func outage(decisions: Int) -> AuditOutage {
        var machine = AuditWriterStateMachine()
        _ = machine.appendFailed(eperm, refused: Array(repeating: skip(), count: decisions), at: t0)
        return machine.outage!
    }

    @Test func theBackoffDoublesFromOneSecondToThirty() {
        let backoff = AuditWriterStateMachine.Configuration()
        #expect((0...7).map { backoff.retryDelay(afterFailedRetries: $0) }
            == [1000, 2000, 4000, 8000, 16_000, 30_000, 30_000, 30_000])
        let custom = AuditWriterStateMachine.Configuration(initialRetryMilliseconds: 300, maximumRetryMilliseconds: 1000)
        #expect((0...3).map { custom.retryDelay(afterFailedRetries: $0) } == [300, 600, 1000, 1000])
        let clamped = AuditWriterStateMachine.Configuration(initialRetryMilliseconds: 0, maximumRetryMilliseconds: -5)
        #expect(clamped == AuditWriterStateMachine.Configuration(initialRetryMilliseconds: 1, maximumRetryMilliseconds: 1))
    }

    @Test func theFirstFailureStartsAnOutageReportedOnce() throws {
        var machine = AuditWriterStateMachine()
        #expect(machine.state == .writing)
        let action = machine.appendFailed(Self.eperm, refused: [storeEntry("k1")], at: Self.t0)
        let expected = try #require(machine.outage)
        #expect(expected.since == AuditTime(millisecondsSinceEpoch: Self.t0))
        #expect(expected.failure == Self.eperm)
        #expect(expected.nextRetry == AuditTime(millisecondsSinceEpoch: Self.t0 + 1000))
        #expect(expected.refusedDecisions == 1)
        #expect(expected.refusedRecords == 1)
        #expect(expected.failedRetries == 0)
        #expect(action == .reportFailure(expected, retryInMilliseconds: 1000))
        #expect(machine.state == .failing(expected))
        #expect(machine.outages == 1)
        // Already failing: counted, not reported again.
        #expect(machine.appendFailed(Self.eperm, refused: [Self.skip()], at: Self.t0 + 5) == .none)
        #expect(machine.outage?.refusedDecisions == 2)
        #expect(machine.outages == 1)
    }

    @Test func refusedRecordsAreCountedAndOnlyDecisionsAreDecisions() {
        var machine = AuditWriterStateMachine()
        machine.refuse([storeEntry("ignored")])  // writing: nothing to count
        _ = machine.appendFailed(Self.eperm, refused: [storeEntry("k1")], at: Self.t0)
        machine.refuse([Self.skip()])
        machine.refuse([AuditEntry(event: .update, key: digest("k2"))])
        machine.refuse([AuditEntry(event: .expire, key: digest("k3")), AuditEntry(event: .purge, key: digest("k4")),
                        AuditEntry(event: .purge, count: 1)])
        machine.refuse([AuditEntry(event: .stop)])
        #expect(machine.outage?.refusedDecisions == 3)
        #expect(machine.outage?.refusedRecords == 7)
        #expect(machine.outage?.since == AuditTime(millisecondsSinceEpoch: Self.t0))
    }

    @Test func failedRetriesBackOffAndASuccessfulOneEndsTheOutage() throws {
        var machine = AuditWriterStateMachine()
        #expect(machine.retry(at: Self.t0) == .none)  // writing: nothing to retry
        _ = machine.appendFailed(Self.eperm, refused: [storeEntry("k1")], at: Self.t0)
        guard case .attemptRecovery(let outage) = machine.retry(at: Self.t0 + 1000) else {
            Issue.record("no recovery attempt")
            return
        }
        #expect(outage == machine.outage)
        #expect(machine.retryFailed(at: Self.t0 + 1000) == .scheduleRetry(inMilliseconds: 2000))
        #expect(machine.retryFailed(at: Self.t0 + 3000) == .scheduleRetry(inMilliseconds: 4000))
        #expect(machine.outage?.failedRetries == 2)
        #expect(machine.outage?.nextRetry == AuditTime(millisecondsSinceEpoch: Self.t0 + 7000))
        let gap = AuditRecord(seq: 2, time: AuditTime(millisecondsSinceEpoch: Self.t0 + 7000),
                              entry: try #require(machine.outage).gapEntry, prev: .zero)
        let ended = try #require(machine.outage)
        #expect(machine.retrySucceeded(gap: gap) == .reportRecovery(ended, gap: gap))
        #expect(machine.state == .writing)
        #expect(machine.retryFailed(at: Self.t0 + 8000) == .none)
        #expect(machine.retrySucceeded(gap: gap) == .none)
        // A second outage is a new one, counted afresh.
        let again = machine.appendFailed(Self.eperm, refused: [Self.skip()], at: Self.t0 + 9000)
        guard case .reportFailure(let second, 1000) = again else {
            Issue.record("no second failure report: \(again)")
            return
        }
        #expect(second.since == AuditTime(millisecondsSinceEpoch: Self.t0 + 9000))
        #expect(second.refusedDecisions == 1)
        #expect(second.failedRetries == 0)
        #expect(machine.outages == 2)
    }

    @Test func closingWhileFailingIsReportedAndClosedIgnoresFailures() throws {
        var writing = AuditWriterStateMachine()
        #expect(writing.close() == .none)
        #expect(writing.state == .closed)
        #expect(writing.appendFailed(Self.eperm, refused: [storeEntry("k1")], at: Self.t0) == .none)
        #expect(writing.outages == 0)

        var failing = AuditWriterStateMachine()
        _ = failing.appendFailed(Self.eperm, refused: [storeEntry("k1")], at: Self.t0)
        let outage = try #require(failing.outage)
        #expect(failing.close() == .reportClosedWhileFailing(outage))
        #expect(failing.state == .closed)
        #expect(failing.retry(at: Self.t0 + 1000) == .none)
    }

    @Test func theGapEntryAndReasonNameTheErrno() throws {
        let outage = Self.outage(decisions: 4)
        #expect(outage.nextRetry == AuditTime(millisecondsSinceEpoch: Self.t0 + 1000))
        #expect(outage.gapEntry == AuditEntry(event: .gap, reason: try ReasonCode("audit-unavailable:eperm"), count: 4,
                                              since: AuditTime(millisecondsSinceEpoch: Self.t0)))
        #expect(outage.cause == "EPERM (1) from write /state/audit/audit.jsonl")
        #expect(outage.shortCause == "EPERM (1)")
        let full = AuditOutage(since: outage.since, failure: AuditError(.io, "x", errno: 28, operation: "write f"),
                               nextRetry: outage.nextRetry)
        #expect(full.reason.rawValue == "audit-unavailable:enospc")
        let unnamed = AuditOutage(since: outage.since, failure: AuditError(.io, "x", errno: 200, operation: "write f"),
                                  nextRetry: outage.nextRetry)
        #expect(unnamed.reason.rawValue == "audit-unavailable:errno-200")
        #expect(unnamed.shortCause == "errno 200 (200)")
        let corrupt = AuditOutage(since: outage.since, failure: AuditError(.corruptLog, "audit.jsonl changed"),
                                  nextRetry: outage.nextRetry)
        #expect(corrupt.reason == .auditUnavailable)
        #expect(corrupt.cause == "corrupt-log: audit.jsonl changed")
        #expect(corrupt.shortCause == "corrupt-log")
        #expect(AuditErrno(1).description == "EPERM (1)")
        #expect(AuditErrno(28).description == "ENOSPC (28)")
        #expect(AuditErrno(30).name == "EROFS")
    }

    @Test func theEventMessagesAreExact() throws {
        var outage = Self.outage(decisions: 2)
        #expect(AuditWriterEvent.failed(outage, retryInMilliseconds: 1000).message
            == "audit log cannot be written: EPERM (1) from write /state/audit/audit.jsonl; storing stopped "
            + "(responses are served, not stored) until a retry succeeds, the first in 1 s")
        let gap = AuditRecord(seq: 17, time: AuditTime(millisecondsSinceEpoch: Self.t0 + 12_500), entry: outage.gapEntry,
                              prev: .zero)
        #expect(AuditWriterEvent.recovered(outage, gap: gap).message
            == "audit log written again after 12.5 s: storing resumed; 2 storage decisions refused since "
            + "2026-11-29T11:07:15.123Z (EPERM (1)), noted in gap record 17")
        outage = Self.outage(decisions: 1)
        #expect(AuditWriterEvent.closedWhileFailing(outage).message
            == "stopping while the audit log cannot be written (EPERM (1) from write /state/audit/audit.jsonl, since "
            + "2026-11-29T11:07:15.123Z): no stop record written; 1 storage decision refused")
        #expect(AuditWriterEvent.failed(outage, retryInMilliseconds: 250).message.hasSuffix("the first in 0.25 s"))
    }
}
