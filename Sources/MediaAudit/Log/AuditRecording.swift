/// The role of an audit sink: what the service calls on every storage decision.
///
/// ``AuditLog`` is the file-backed implementation; ``InMemoryAuditLog`` keeps records in memory for tests.
/// Both assign `seq`, `time`, `prev` and `hash` the same way.
public protocol AuditRecording: Sendable {
    /// Appends one record and returns it as written. Errors are the implementation's.
    @discardableResult
    func append(_ entry: AuditEntry) throws -> AuditRecord

    /// Appends several records atomically with consecutive `seq` (per-key records plus a summary).
    @discardableResult
    func append(contentsOf entries: [AuditEntry]) throws -> [AuditRecord]

    /// Makes everything appended so far durable (a no-op in memory).
    func flush() throws
}

extension AuditLog: AuditRecording {}
