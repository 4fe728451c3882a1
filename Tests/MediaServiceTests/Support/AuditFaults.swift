import MediaAudit
import Synchronization

/// An in-memory log whose appends throw ``MediaAudit/AuditError/Code/io`` (`EPERM`, as a file made immutable
/// does) while ``failing`` is set, writing nothing.
final class FailingRecorder: AuditRecording {
    let inner: InMemoryAuditLog
    let failing = Mutex(false)

    /// - Parameter clock: the records' `time`, in milliseconds since the epoch. Default: the system clock.
    init(clock: @escaping AuditLog.Clock = AuditLog.systemClock) { inner = InMemoryAuditLog(clock: clock) }

    func fail() { failing.withLock { $0 = true } }
    func heal() { failing.withLock { $0 = false } }

    func append(_ entry: AuditEntry) throws -> AuditRecord { try append(contentsOf: [entry])[0] }

    func append(contentsOf entries: [AuditEntry]) throws -> [AuditRecord] {
        if failing.withLock({ $0 }) { throw Self.eperm }
        return try inner.append(contentsOf: entries)
    }

    func flush() throws {
        if failing.withLock({ $0 }) { throw Self.eperm }
    }

    static let eperm = AuditError(.io, "write /state/audit/audit.jsonl: Operation not permitted (errno 1)", errno: 1,
                                  operation: "write /state/audit/audit.jsonl")
}

/// The audit writer's events a service reported, as the lines `mediactl serve` would print.
final class WriterEventLines: Sendable {
    private let list = Mutex<[String]>([])
    var lines: [String] { list.withLock { $0 } }
    var handler: @Sendable (AuditWriterEvent) -> Void { { [self] event in list.withLock { $0.append(event.message) } } }
}
