import Glibc
import MediaAudit

/// The clocks `mediactl audit` reads for its JUnit and HTML reports: the wall clock for when the audit
/// ran (``MediaAudit/AuditReportContext/generatedAt``) and a monotonic one for how long it took. Tests
/// inject fixed values so that the files are exact.
public struct AuditReportClock: Sendable {
    /// The current time (wall clock, `CLOCK_REALTIME`).
    public var now: @Sendable () -> AuditTime
    /// Milliseconds on a clock that never goes back (`CLOCK_MONOTONIC`); only differences are used.
    public var monotonicMilliseconds: @Sendable () -> Int64

    public init(now: @escaping @Sendable () -> AuditTime, monotonicMilliseconds: @escaping @Sendable () -> Int64) {
        self.now = now
        self.monotonicMilliseconds = monotonicMilliseconds
    }

    /// The system clocks.
    public static let system = AuditReportClock(
        now: { AuditTime(millisecondsSinceEpoch: milliseconds(CLOCK_REALTIME)) },
        monotonicMilliseconds: { milliseconds(CLOCK_MONOTONIC) })

    private static func milliseconds(_ clock: clockid_t) -> Int64 {
        var spec = timespec()
        clock_gettime(clock, &spec)
        return Int64(spec.tv_sec) * 1000 + Int64(spec.tv_nsec) / 1_000_000
    }
}
