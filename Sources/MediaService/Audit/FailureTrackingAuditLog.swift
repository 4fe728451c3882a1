import MediaAudit
import Synchronization

/// An ``MediaAudit/AuditRecording`` that remembers whether any append or flush of the log it wraps has
/// thrown since the service started: `/_mediactl/metrics` exports it as the gauge
/// `mediactl_audit_writer_failed` (0 or 1), the signal to alert on (docs/scale-out.md, "Metrics"). The
/// service stores nothing whose record could not be written, so a replica with this gauge at 1 is
/// serving misses from the origin without caching them, or has lost `evict`/`expire` records.
final class FailureTrackingAuditLog: AuditRecording {
    private let log: any AuditRecording
    private let failed = Atomic<Bool>(false)

    init(_ log: any AuditRecording) { self.log = log }

    /// `true` once an append or flush has thrown (never reset while the process runs).
    var hasFailed: Bool { failed.load(ordering: .relaxed) }

    @discardableResult
    func append(_ entry: AuditEntry) throws -> AuditRecord {
        try tracking { try log.append(entry) }
    }

    @discardableResult
    func append(contentsOf entries: [AuditEntry]) throws -> [AuditRecord] {
        try tracking { try log.append(contentsOf: entries) }
    }

    func flush() throws { try tracking { try log.flush() } }

    private func tracking<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch {
            failed.store(true, ordering: .relaxed)
            throw error
        }
    }
}
