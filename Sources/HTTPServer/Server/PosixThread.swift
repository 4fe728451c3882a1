import CHTTPServerLinux
import Glibc

/// Starts pthreads running Swift closures (no Foundation).
enum PosixThread {
    private final class Body {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }

    /// Starts a thread named `name` running `body`.
    /// - Parameter name: the thread's name as `top -H`, `ps -L` and `/proc/PID/task/TID/comm` show it;
    ///   the kernel keeps its first 15 bytes. (A new thread would otherwise inherit its creator's name,
    ///   such as the Swift concurrency pool's.)
    /// - Returns: the thread id, or `nil` when `pthread_create` failed.
    static func spawn(name: String, stackBytes: Int, detached: Bool, _ body: @escaping @Sendable () -> Void) -> pthread_t? {
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setstacksize(&attributes, max(stackBytes, 65_536))
        if detached { pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED)) }
        let context = Unmanaged.passRetained(Body { setCurrentName(name); body() }).toOpaque()
        var thread = pthread_t()
        let result = pthread_create(&thread, &attributes, { context in
            Unmanaged<Body>.fromOpaque(context!).takeRetainedValue().run()
            return nil
        }, context)
        if result != 0 {
            Unmanaged<Body>.fromOpaque(context).release()
            return nil
        }
        return thread
    }

    /// Names the calling thread (`prctl(PR_SET_NAME)`; the kernel keeps the first 15 bytes).
    static func setCurrentName(_ name: String) {
        _ = chttp_set_current_thread_name(name)
    }
}

/// Monotonic milliseconds for deadlines (never the wall clock).
enum MonotonicClock {
    static func nowMilliseconds() -> Int {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Int(now.tv_sec) * 1_000 + Int(now.tv_nsec) / 1_000_000
    }
}
