#if canImport(Glibc)
import Glibc
#endif

/// A monotonic clock for benchmarks (CLOCK_MONOTONIC), in nanoseconds.
struct Stopwatch {
    static func now() -> UInt64 {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
    }

    /// Runs `body` `iterations` times and returns nanoseconds per iteration.
    static func measure(iterations: Int, _ body: () -> Void) -> Double {
        let start = now()
        for _ in 0..<iterations { body() }
        return Double(now() - start) / Double(iterations)
    }
}

/// Keeps the optimizer from deleting a benchmark's work.
@inline(never) func blackHole<T>(_ value: T) {}
