import Synchronization

/// Background refreshes (`stale-while-revalidate`) the service must finish before a graceful stop.
final class BackgroundTasks: Sendable {
    private let tasks = Mutex<[Int: Task<Void, Never>]>([:])
    private let next = Atomic<Int>(0)

    func run(_ operation: @escaping @Sendable () async -> Void) {
        let id = next.add(1, ordering: .relaxed).newValue
        // Registered under the lock the task's own removal takes, so a task that finishes at once is
        // still removed (its removal waits for the registration).
        tasks.withLock { tasks in
            tasks[id] = Task { [weak self] in
                await operation()
                _ = self?.tasks.withLock { $0.removeValue(forKey: id) }
            }
        }
    }

    func waitForAll() async {
        let pending = tasks.withLock { Array($0.values) }
        for task in pending { await task.value }
    }
}
