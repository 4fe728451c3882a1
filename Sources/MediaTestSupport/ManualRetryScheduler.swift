import MediaAudit
import Synchronization

/// A `MediaAudit.AuditRetryScheduling` fired by hand: it keeps the delays asked for and the work, and ``fire()`` runs
/// what is pending (never what that work schedules), so no test sleeps.
public final class ManualRetryScheduler: AuditRetryScheduling {
    public init() {}

    private struct State {
        var delays: [Int64] = []
        var pending: [@Sendable () -> Void] = []
        var cancelled = false
    }

    private let state = Mutex(State())

    /// Every delay asked for so far, in milliseconds.
    public var delays: [Int64] { state.withLock { $0.delays } }
    /// Work scheduled and not run yet.
    public var pendingCount: Int { state.withLock { $0.pending.count } }
    public var isCancelled: Bool { state.withLock { $0.cancelled } }

    public func schedule(after milliseconds: Int64, _ work: @escaping @Sendable () -> Void) {
        state.withLock { state in
            guard !state.cancelled else { return }
            state.delays.append(milliseconds)
            state.pending.append(work)
        }
    }

    public func cancel() {
        state.withLock { state in
            state.cancelled = true
            state.pending = []
        }
    }

    /// Runs the work pending now.
    public func fire() {
        let work = state.withLock { state -> [@Sendable () -> Void] in
            defer { state.pending = [] }
            return state.pending
        }
        for item in work { item() }
    }
}
