import Foundation
import MediaAudit

/// The clocks a command reads: the wall clock for "now" and a monotonic one for durations.
public struct CommandClock: Sendable {
    /// Now, in seconds since the Unix epoch (`CLOCK_REALTIME`).
    public var now: @Sendable () -> Double
    /// Seconds on a clock that never goes back (`CLOCK_MONOTONIC`); only differences are used.
    public var monotonic: @Sendable () -> Double

    public init(now: @escaping @Sendable () -> Double, monotonic: @escaping @Sendable () -> Double) {
        self.now = now
        self.monotonic = monotonic
    }

    /// The system clocks.
    public static let system = CommandClock(
        now: { Date().timeIntervalSince1970 },
        monotonic: WarmCommand.monotonicSeconds)

    /// The same clocks as `mediactl audit` reads them, in whole milliseconds.
    var auditReport: AuditReportClock {
        let now = self.now
        let monotonic = self.monotonic
        return AuditReportClock(
            now: { AuditTime(millisecondsSinceEpoch: Int64((now() * 1000).rounded(.down))) },
            monotonicMilliseconds: { Int64((monotonic() * 1000).rounded(.down)) })
    }
}
