import Synchronization

/// An ``AuditRecording`` that survives a log it cannot write for a while (docs/audit-format.md, "Gaps"): the
/// shell of ``AuditWriterStateMachine``.
///
/// - Writing: appends go to the wrapped log. The first one that fails with ``AuditError/Code/io`` (a full or
///   failing disk, a file made immutable or read-only: `EPERM`, `ENOSPC`, `EIO`, `EROFS` …) starts an outage,
///   reported once to `onEvent` (``AuditWriterEvent/failed(_:retryInMilliseconds:)``).
/// - Failing: every append and flush throws ``AuditError/Code/unavailable`` at once, without touching the file,
///   and is counted; a caller that stores only once its record is written (the service) therefore persists
///   nothing. Retries run on `scheduler` after 1 s, 2 s, 4 s, … up to 30 s (``AuditWriterStateMachine/Configuration``):
///   each makes an ``AuditLog`` usable again (``AuditLog/reopenIfNeeded()``) and appends the `gap` record
///   (`since` = the first failure, `count` = the storage decisions refused). Once it is written, appends go to
///   the log again, the gap record first in the chain, and `onEvent` hears
///   ``AuditWriterEvent/recovered(_:gap:)``.
/// - ``close()``: no more retries; `onEvent` hears ``AuditWriterEvent/closedWhileFailing(_:)`` during an outage.
///
/// Other errors (a refused entry such as ``AuditError/Code/invalidNumber``, ``AuditError/Code/closed``) pass
/// through and change nothing. Thread-safe: appends and retries are serialised by one `Mutex` (as an
/// ``AuditLog``'s own lock serialises its appends), so no append slips in between a failure and the outage, or
/// between a recovery and its gap record; a flush's fsync runs outside it, so appends never wait for the disk
/// behind a flush. ``outage`` and ``outageCount`` read a copy kept under a lock of their own: a probe or a
/// scrape never waits for an append.
public final class RecoveringAuditLog: AuditRecording {
    /// Milliseconds since the Unix epoch (the `time` the wrapped log writes).
    public typealias Clock = @Sendable () -> Int64

    /// The wrapped log.
    public let log: any AuditRecording
    private let machine: Mutex<AuditWriterStateMachine>
    /// ``outage`` and ``outageCount`` as of the last change (lock order: `machine`, then this).
    private let published = Mutex<(outage: AuditOutage?, outages: Int)>((nil, 0))
    private let clock: Clock
    private let scheduler: any AuditRetryScheduling
    private let onEvent: @Sendable (AuditWriterEvent) -> Void

    /// - Parameters:
    ///   - log: the log to write (an ``AuditLog`` is reopened by retries; any other recorder is only retried).
    ///   - configuration: the retry backoff. Default: 1 s doubling to 30 s.
    ///   - clock: "now" in milliseconds since the epoch, for `since` and the next retry. Default:
    ///     ``AuditLog/systemClock``.
    ///   - scheduler: runs the retries. Default: a new ``AuditRetryTimer``.
    ///   - onEvent: told of each change of state, once, on the thread that made it (never under the lock).
    ///     Default: nothing.
    public init(_ log: any AuditRecording, configuration: AuditWriterStateMachine.Configuration = .init(),
                clock: @escaping Clock = AuditLog.systemClock, scheduler: any AuditRetryScheduling = AuditRetryTimer(),
                onEvent: @escaping @Sendable (AuditWriterEvent) -> Void = { _ in }) {
        self.log = log
        self.machine = Mutex(AuditWriterStateMachine(configuration: configuration))
        self.clock = clock
        self.scheduler = scheduler
        self.onEvent = onEvent
    }

    /// The outage in progress, or `nil` while the log is written. Never waits for an append.
    public var outage: AuditOutage? { published.withLock { $0.outage } }

    /// Outages begun since the start (`mediactl_audit_writer_outages_total`). Never waits for an append.
    public var outageCount: Int { published.withLock { $0.outages } }

    /// Appends `entry` to the log while it is written; throws ``AuditError/Code/unavailable`` during an outage
    /// (counted), and the log's own error otherwise (an ``AuditError/Code/io`` one starts the outage).
    @discardableResult
    public func append(_ entry: AuditEntry) throws -> AuditRecord {
        try writing([entry]) { try log.append(entry) }
    }

    /// Appends `entries` as one batch; errors as ``append(_:)``.
    @discardableResult
    public func append(contentsOf entries: [AuditEntry]) throws -> [AuditRecord] {
        try writing(entries) { try log.append(contentsOf: entries) }
    }

    /// The log's flush while it is written, outside the lock; ``AuditError/Code/unavailable`` during an outage. A
    /// flush that fails with ``AuditError/Code/io`` starts one.
    public func flush() throws {
        if let outage { throw Self.unavailable(outage) }
        do {
            try log.flush()
        } catch let error as AuditError where error.code == .io {
            perform(changing { $0.appendFailed(error, refused: [], at: clock()) })
            throw error
        }
    }

    /// Retries at once during an outage, whatever the backoff (a graceful stop does, so that a log writable again
    /// gets its gap record and the `stop` record); nothing otherwise.
    public func retryNow() {
        retry()
    }

    /// No more retries. During an outage `onEvent` hears ``AuditWriterEvent/closedWhileFailing(_:)``. Appends
    /// then go to the wrapped log (closed by its owner). Idempotent.
    public func close() {
        scheduler.cancel()
        perform(changing { $0.close() })
    }

    /// Runs `change` on the state machine under its lock and publishes the result for ``outage``.
    private func changing<T: Sendable>(_ change: (inout AuditWriterStateMachine) -> T) -> T {
        machine.withLock { machine in
            let result = change(&machine)
            published.withLock { $0 = (machine.outage, machine.outages) }
            return result
        }
    }

    private func writing<T: Sendable>(_ entries: [AuditEntry], _ body: () throws -> T) throws -> T {
        let (result, action) = changing { machine -> (Result<T, any Error>, AuditWriterStateMachine.Action) in
            if let outage = machine.outage {
                machine.refuse(entries)
                return (.failure(Self.unavailable(outage)), .none)
            }
            do {
                return (.success(try body()), .none)
            } catch let error as AuditError where error.code == .io {
                return (.failure(error), machine.appendFailed(error, refused: entries, at: clock()))
            } catch {
                return (.failure(error), .none)
            }
        }
        perform(action)
        return try result.get()
    }

    /// One retry: make the log usable, write the gap record; under the lock, so appends wait for it.
    private func retry() {
        let action = changing { machine -> AuditWriterStateMachine.Action in
            guard case .attemptRecovery(let outage) = machine.retry(at: clock()) else { return .none }
            do {
                try (log as? AuditLog)?.reopenIfNeeded()
                return machine.retrySucceeded(gap: try log.append(outage.gapEntry))
            } catch {
                return machine.retryFailed(at: clock())
            }
        }
        perform(action)
    }

    private func perform(_ action: AuditWriterStateMachine.Action) {
        switch action {
        case .none, .attemptRecovery:
            return
        case .reportFailure(let outage, let delay):
            onEvent(.failed(outage, retryInMilliseconds: delay))
            schedule(after: delay)
        case .scheduleRetry(let delay):
            schedule(after: delay)
        case .reportRecovery(let outage, let gap):
            onEvent(.recovered(outage, gap: gap))
        case .reportClosedWhileFailing(let outage):
            onEvent(.closedWhileFailing(outage))
        }
    }

    private func schedule(after delay: Int64) {
        scheduler.schedule(after: delay) { [weak self] in self?.retry() }
    }

    /// The error of an append refused during `outage`.
    static func unavailable(_ outage: AuditOutage) -> AuditError {
        AuditError(.unavailable, "the audit log cannot be written since \(outage.since) (\(outage.cause)); "
            + "next retry at \(outage.nextRetry)")
    }
}
