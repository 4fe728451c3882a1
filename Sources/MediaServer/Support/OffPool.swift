import Foundation

/// Runs blocking work (``HTTPServer/HTTPServer/stop()``, which waits for in-flight requests) on
/// its own thread, so no thread of the cooperative pool blocks.
public enum OffPool {
    /// Runs `body` on a new thread and resumes with its result.
    public static func run<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            let thread = Thread { continuation.resume(returning: body()) }
            thread.name = "mediactl-blocking"
            thread.start()
        }
    }
}
