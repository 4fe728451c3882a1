/// Whether the audit log is written, as a pure state machine (no I/O, no clock: times are parameters, in
/// milliseconds since the Unix epoch) that ``RecoveringAuditLog`` drives and performs the actions of.
///
/// ```
/// writing ──appendFailed──▶ failing ──retrySucceeded──▶ writing
///                           │     ▲
///                           └─────┘ retryFailed: the delay doubles, up to the maximum
/// writing, failing ──close──▶ closed
/// ```
///
/// While failing, every append is refused without touching the file and counted (``AuditOutage``), so nothing
/// is persisted without its record; the first retry comes ``Configuration/initialRetryMilliseconds`` after the
/// failure, each further one twice as late as the last, at most ``Configuration/maximumRetryMilliseconds``. A
/// retry that writes the `gap` record (``AuditOutage/gapEntry``) ends the outage. Each change of state is
/// reported once: ``Action/reportFailure(_:retryInMilliseconds:)``, ``Action/reportRecovery(_:gap:)``,
/// ``Action/reportClosedWhileFailing(_:)``.
public struct AuditWriterStateMachine: Sendable, Hashable {
    /// The retry backoff.
    public struct Configuration: Sendable, Hashable {
        /// The delay before the first retry, in milliseconds. Default: 1,000.
        public var initialRetryMilliseconds: Int64
        /// The longest delay between two retries, in milliseconds. Default: 30,000.
        public var maximumRetryMilliseconds: Int64

        /// Delays below 1 ms count as 1 ms; a maximum below the initial delay is the initial delay.
        public init(initialRetryMilliseconds: Int64 = 1000, maximumRetryMilliseconds: Int64 = 30_000) {
            self.initialRetryMilliseconds = max(1, initialRetryMilliseconds)
            self.maximumRetryMilliseconds = max(self.initialRetryMilliseconds, maximumRetryMilliseconds)
        }

        /// The delay before the retry that follows `failedRetries` failed ones: the initial delay doubled
        /// `failedRetries` times, at most the maximum (1,000, 2,000, 4,000, … 16,000, 30,000, 30,000 ms by default).
        public func retryDelay(afterFailedRetries failedRetries: Int) -> Int64 {
            var delay = initialRetryMilliseconds
            for _ in 0..<max(0, failedRetries) where delay < maximumRetryMilliseconds { delay *= 2 }
            return min(delay, maximumRetryMilliseconds)
        }
    }

    /// Where the writer is.
    public enum State: Sendable, Hashable {
        /// Appends go to the log.
        case writing
        /// Appends are refused and counted until a retry writes the `gap` record.
        case failing(AuditOutage)
        /// ``close()`` was called: appends go to the log, which refuses them as closed.
        case closed
    }

    /// What the shell does after an event.
    public enum Action: Sendable, Hashable {
        /// Nothing.
        case none
        /// The log has just failed: tell the operator (once per outage) and retry after the delay.
        case reportFailure(AuditOutage, retryInMilliseconds: Int64)
        /// A retry failed: retry again after the delay (nothing to report).
        case scheduleRetry(inMilliseconds: Int64)
        /// Try now: make the log usable (``AuditLog/reopenIfNeeded()``) and append ``AuditOutage/gapEntry``, then
        /// call ``retrySucceeded(gap:)`` or ``retryFailed(at:)``.
        case attemptRecovery(AuditOutage)
        /// The log is written again, its `gap` record first: tell the operator.
        case reportRecovery(AuditOutage, gap: AuditRecord)
        /// Closed while failing (no `stop` record could be written): tell the operator.
        case reportClosedWhileFailing(AuditOutage)
    }

    /// The backoff.
    public let configuration: Configuration
    /// The current state.
    public private(set) var state: State = .writing
    /// Outages begun so far (each `writing → failing`).
    public private(set) var outages = 0

    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
    }

    /// The outage in progress, or `nil` while writing (or closed).
    public var outage: AuditOutage? {
        if case .failing(let outage) = state { return outage }
        return nil
    }

    /// An append (or flush) failed at `now` with `error`; `refused` are its entries, none of them written.
    /// Writing: the outage begins (``Action/reportFailure(_:retryInMilliseconds:)``). Otherwise the entries are
    /// only counted (failing) or nothing changes (closed).
    public mutating func appendFailed(_ error: AuditError, refused: [AuditEntry], at now: Int64) -> Action {
        switch state {
        case .writing:
            let delay = configuration.retryDelay(afterFailedRetries: 0)
            var outage = AuditOutage(since: AuditTime(millisecondsSinceEpoch: now), failure: error,
                                     nextRetry: AuditTime(millisecondsSinceEpoch: now + delay))
            Self.count(refused, in: &outage)
            state = .failing(outage)
            outages += 1
            return .reportFailure(outage, retryInMilliseconds: delay)
        case .failing:
            refuse(refused)
            return .none
        case .closed:
            return .none
        }
    }

    /// Counts `entries`, refused without trying while failing; nothing otherwise.
    public mutating func refuse(_ entries: [AuditEntry]) {
        guard case .failing(var outage) = state else { return }
        Self.count(entries, in: &outage)
        state = .failing(outage)
    }

    /// A retry is due (its timer fired, or the service stops): ``Action/attemptRecovery(_:)`` while failing,
    /// ``Action/none`` otherwise. `now` is not compared with ``AuditOutage/nextRetry``: a retry asked for early runs.
    public func retry(at now: Int64) -> Action {
        guard case .failing(let outage) = state else { return .none }
        return .attemptRecovery(outage)
    }

    /// The retry at `now` failed: the next comes after the doubled delay (``Action/scheduleRetry(inMilliseconds:)``).
    public mutating func retryFailed(at now: Int64) -> Action {
        guard case .failing(var outage) = state else { return .none }
        outage.failedRetries += 1
        let delay = configuration.retryDelay(afterFailedRetries: outage.failedRetries)
        outage.nextRetry = AuditTime(millisecondsSinceEpoch: now + delay)
        state = .failing(outage)
        return .scheduleRetry(inMilliseconds: delay)
    }

    /// The retry wrote `gap` (the outage's ``AuditOutage/gapEntry``): writing again.
    public mutating func retrySucceeded(gap: AuditRecord) -> Action {
        guard case .failing(let outage) = state else { return .none }
        state = .writing
        return .reportRecovery(outage, gap: gap)
    }

    /// Closes the writer: ``Action/reportClosedWhileFailing(_:)`` when an outage is in progress.
    public mutating func close() -> Action {
        let outage = self.outage
        state = .closed
        return outage.map { .reportClosedWhileFailing($0) } ?? .none
    }

    private static func count(_ entries: [AuditEntry], in outage: inout AuditOutage) {
        outage.refusedRecords += entries.count
        outage.refusedDecisions += entries.count(where: { $0.event.isStorageDecision })
    }
}
