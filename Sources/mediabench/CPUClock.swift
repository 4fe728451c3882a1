#if canImport(Glibc)
import Glibc
#endif

/// The process's CPU time (user + system, every thread: `getrusage(RUSAGE_SELF)`), in microseconds.
///
/// A derivation runs on a transform worker thread while the caller waits on another, so the
/// process's total is what one image costs; the benchmarks that read it run one request at a time.
struct CPUClock {
    struct Reading: Sendable {
        var userMicroseconds: Int64
        var systemMicroseconds: Int64
        var totalMicroseconds: Int64 { userMicroseconds + systemMicroseconds }
    }

    static func now() -> Reading {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Reading(
            userMicroseconds: Int64(usage.ru_utime.tv_sec) * 1_000_000 + Int64(usage.ru_utime.tv_usec),
            systemMicroseconds: Int64(usage.ru_stime.tv_sec) * 1_000_000 + Int64(usage.ru_stime.tv_usec))
    }
}
