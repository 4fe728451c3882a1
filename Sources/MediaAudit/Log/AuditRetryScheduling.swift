import Dispatch
import Synchronization

/// Runs a ``RecoveringAuditLog``'s retries later. Tests inject one they fire by hand, so no test sleeps.
public protocol AuditRetryScheduling: Sendable {
    /// Runs `work` once, about `milliseconds` from now, on a thread of the scheduler's (never the caller's).
    func schedule(after milliseconds: Int64, _ work: @escaping @Sendable () -> Void)
    /// Drops the work scheduled and not yet started; later ``schedule(after:_:)`` calls do nothing.
    func cancel()
}

/// The production scheduler: a serial dispatch queue of its own and `asyncAfter` (wall-clock independent:
/// `DispatchTime`, the monotonic clock).
public final class AuditRetryTimer: AuditRetryScheduling {
    private let queue = DispatchQueue(label: "mediactl.audit-retry")
    /// Bumped by ``cancel()``; work scheduled under an older generation does nothing.
    private let generation = Atomic<Int>(0)
    private let cancelled = Atomic<Bool>(false)

    public init() {}

    public func schedule(after milliseconds: Int64, _ work: @escaping @Sendable () -> Void) {
        guard !cancelled.load(ordering: .acquiring) else { return }
        let scheduled = generation.load(ordering: .acquiring)
        queue.asyncAfter(deadline: .now() + .milliseconds(Int(max(0, milliseconds)))) { [self] in
            guard generation.load(ordering: .acquiring) == scheduled else { return }
            work()
        }
    }

    public func cancel() {
        cancelled.store(true, ordering: .releasing)
        generation.add(1, ordering: .acquiringAndReleasing)
    }
}
