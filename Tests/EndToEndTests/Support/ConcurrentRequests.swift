import Foundation
import Synchronization

/// Runs blocking work on real threads (never the cooperative pool), all started together.
enum ConcurrentRequests {
    /// Calls `body(0..<count)` on `count` threads at once; returns each result (`nil` when it threw), in index order.
    static func run<T: Sendable>(count: Int, _ body: @escaping @Sendable (Int) throws -> T) -> [T?] {
        let results = Mutex<[T?]>(Array(repeating: nil, count: count))
        let group = DispatchGroup()
        for index in 0..<count {
            group.enter()
            let thread = Thread {
                let value = try? body(index)
                results.withLock { $0[index] = value }
                group.leave()
            }
            thread.start()
        }
        group.wait()
        return results.withLock { $0 }
    }
}
