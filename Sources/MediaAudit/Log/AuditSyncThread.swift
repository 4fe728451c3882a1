import Foundation

/// The thread that runs an ``AuditLog``'s batched fsyncs (group commit), woken by ``request()``.
///
/// Requests made while a sync runs coalesce into one more run. ``stop()`` ends the thread after the
/// run in progress; it never waits for it (``AuditLog/close()`` fsyncs on its own).
final class AuditSyncThread: @unchecked Sendable {
    // Guarded by `condition`.
    private let condition = NSCondition()
    private var requested = false
    private var stopped = false

    /// Starts the thread; `work` runs once per wake-up.
    func start(_ work: @escaping @Sendable () -> Void) {
        let thread = Thread { [self] in loop(work) }
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

    private func loop(_ work: @Sendable () -> Void) {
        while true {
            condition.lock()
            while !requested && !stopped { condition.wait() }
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
