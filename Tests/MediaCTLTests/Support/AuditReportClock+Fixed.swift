import MediaAudit
import Synchronization

@testable import MediaCTL

extension AuditReportClock {
    /// A clock whose wall time is 2026-11-29T11:07:15.123Z and whose monotonic readings are `ticks`, in order.
    static func fixed(ticks: [Int64]) -> AuditReportClock {
        let ticks = Mutex(ticks)
        return AuditReportClock(
            now: { AuditTime(millisecondsSinceEpoch: 1_795_950_435_123) },
            monotonicMilliseconds: { ticks.withLock { $0.removeFirst() } })
    }
}
