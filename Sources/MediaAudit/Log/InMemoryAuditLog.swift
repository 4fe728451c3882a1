import Synchronization

/// An ``AuditRecording`` that keeps the chained records in memory: for tests of code that audits.
public final class InMemoryAuditLog: AuditRecording {
    private let clock: AuditLog.Clock
    private let storage = Mutex<[AuditRecord]>([])

    /// - Parameter clock: milliseconds since the Unix epoch for `time`. Default: the system clock.
    public init(clock: @escaping AuditLog.Clock = AuditLog.systemClock) { self.clock = clock }

    /// Every record appended so far, in order.
    public var records: [AuditRecord] { storage.withLock { $0 } }

    /// Appends one record.
    /// - Throws: ``AuditError/Code/invalidNumber`` for a negative number (nothing appended).
    @discardableResult
    public func append(_ entry: AuditEntry) throws -> AuditRecord { try append(contentsOf: [entry])[0] }

    /// Appends several records with consecutive `seq`. Same errors as ``append(_:)``.
    @discardableResult
    public func append(contentsOf entries: [AuditEntry]) throws -> [AuditRecord] {
        for entry in entries { try entry.validate() }
        return storage.withLock { records in
            let time = AuditTime(millisecondsSinceEpoch: clock())
            var added: [AuditRecord] = []
            for entry in entries {
                let record = AuditRecord(
                    seq: records.count + 1, time: time, entry: entry, prev: records.last?.hash ?? .zero)
                records.append(record)
                added.append(record)
            }
            return added
        }
    }

    /// No-op.
    public func flush() throws {}
}
