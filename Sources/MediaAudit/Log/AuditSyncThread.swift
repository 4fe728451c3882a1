import Foundation

/// The thread that runs an ``AuditLog``'s batched fsyncs (group commit), woken by ``request()``.
///
/// Requests made while a sync runs coalesce into one more run. With an idle interval the work also
/// runs after that many seconds without a request (the log then syncs records a quiet period left
/// unsynced). ``stop()`` ends the thread after the run in progress; it never waits for it
/// (``AuditLog/close()`` fsyncs on its own).
final class AuditSyncThread: @unchecked Sendable {
    // Guarded by `condition`.
    private let condition = NSCondition()
    private var requested = false
    private var stopped = false

    /// Starts the thread; `work` runs once per wake-up (request or idle interval, in seconds).
    func start(idleInterval: Double, _ work: @escaping @Sendable () -> Void) {
        let thread = Thread { [self] in loop(idleInterval: idleInterval, work) }
        thread.name = "audit-sync"
        thread.start()
    }

    /// Asks for one run of the work (cheap: a lock and a signal).
    func request() {
        condition.lock()
        requested = true
        condition.signal()
        condition.unlock()
    }

    /// Ends the thread; later requests do nothing.
    func stop() {
        condition.lock()
        stopped = true
        condition.signal()
        condition.unlock()
    }

    private func loop(idleInterval: Double, _ work: @Sendable () -> Void) {
        while true {
            condition.lock()
            let deadline = Date(timeIntervalSinceNow: idleInterval)
            while !requested && !stopped {
                if !condition.wait(until: deadline) { break }
            }
            if stopped {
                condition.unlock()
                return
            }
            requested = false
            condition.unlock()
            work()
        }
    }
}
