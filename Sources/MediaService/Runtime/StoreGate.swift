import Glibc

/// Orders the service's storage changes with their audit records across keys: exchanges store under
/// ``shared(_:)``, purges, invalidations and expiries remove and record under ``exclusive(_:)``.
///
/// A file store already orders its own changes with their records (both under its lock, see
/// `MediaStoring.store(_:for:recordingFirst:)`); the gate covers what one store's lock cannot: a purge
/// spans every store of every tier and records its batch after removing, and an exchange's purge check
/// must not pass just before a purge removes what it is about to insert. With the gate, a purge (a
/// logout) either sees an exchange's entry and removes it, or the exchange sees the purge and stores
/// nothing; and no `store` of a key can land between a removal and its record.
///
/// A `pthread_rwlock_t` preferring writers (a purge is not starved by a stream of misses). Sections are
/// short and synchronous: never hold the gate across an `await`, and never take it twice on one thread.
final class StoreGate: @unchecked Sendable {
    private let lock: UnsafeMutablePointer<pthread_rwlock_t>

    init() {
        lock = .allocate(capacity: 1)
        var attributes = pthread_rwlockattr_t()
        pthread_rwlockattr_init(&attributes)
        pthread_rwlockattr_setkind_np(&attributes, Int32(PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP))
        pthread_rwlock_init(lock, &attributes)
        pthread_rwlockattr_destroy(&attributes)
    }

    deinit {
        pthread_rwlock_destroy(lock)
        lock.deallocate()
    }

    /// Runs `body` while no exclusive section runs (many shared sections may run at once).
    func shared<R>(_ body: () throws -> R) rethrows -> R {
        pthread_rwlock_rdlock(lock)
        defer { pthread_rwlock_unlock(lock) }
        return try body()
    }

    /// Runs `body` alone: no shared or other exclusive section runs meanwhile.
    func exclusive<R>(_ body: () throws -> R) rethrows -> R {
        pthread_rwlock_wrlock(lock)
        defer { pthread_rwlock_unlock(lock) }
        return try body()
    }
}
