import Synchronization

/// The purge epoch: bumped when a purge or a reload starts, read when a request is admitted and again before its
/// answer is stored, so an exchange admitted before a purge stores nothing (a logout during a fetch). A class so the
/// service and its commit stage (``StoreCommit``) share one counter.
final class PurgeEpoch: Sendable {
    private let value = Atomic<Int>(0)

    /// The epoch now (acquiring: a reader that sees a bump also sees what was swapped before it).
    var current: Int { value.load(ordering: .acquiring) }

    /// Starts a new epoch.
    func bump() { value.add(1, ordering: .acquiringAndReleasing) }
}
