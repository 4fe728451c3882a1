import Synchronization

/// `mediactl_policy_reloads_total{result="ok"|"failed"}`: reloads that put a new policy set in force, and
/// reloads refused (an invalid set, kept out; or a failure while swapping, after which the old set stays).
final class ReloadCounters: Sendable {
    private let succeeded = Atomic<Int>(0), failed = Atomic<Int>(0)
    private let failure = Mutex<String?>(nil)

    /// Counts a reload. A success clears ``lastFailure``; a failure with a `reason` sets it until a reload succeeds,
    /// one without (a transient refusal: the audit log cannot be written, the service is stopping) leaves it as is.
    func count(ok: Bool, reason: String? = nil) {
        if ok { succeeded.add(1, ordering: .relaxed) } else { failed.add(1, ordering: .relaxed) }
        if ok || reason != nil { failure.withLock { $0 = reason } }
    }

    /// Why the last reload failed, while no reload has succeeded since; `nil` otherwise (readiness, `policies`).
    var lastFailure: String? { failure.withLock { $0 } }

    /// The two counts.
    var values: (ok: Int, failed: Int) {
        (succeeded.load(ordering: .relaxed), failed.load(ordering: .relaxed))
    }
}
