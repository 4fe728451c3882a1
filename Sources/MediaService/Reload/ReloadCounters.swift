import Synchronization

/// `mediactl_policy_reloads_total{result="ok"|"failed"}`: reloads that put a new policy set in force, and
/// reloads refused (an invalid set, kept out; or a failure while swapping, after which the old set stays).
final class ReloadCounters: Sendable {
    private let succeeded = Atomic<Int>(0), failed = Atomic<Int>(0)

    func count(ok: Bool) {
        if ok { succeeded.add(1, ordering: .relaxed) } else { failed.add(1, ordering: .relaxed) }
    }

    /// The two counts.
    var values: (ok: Int, failed: Int) {
        (succeeded.load(ordering: .relaxed), failed.load(ordering: .relaxed))
    }
}
