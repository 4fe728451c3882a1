import MediaAudit
import MediaStorage

/// The service's ``MediaStorage/DurabilityBarrier``: the audit log. A file store renames an object file
/// into place only once the `store` (or `update`) record written for it is fsynced, so after a power loss
/// no object file is durable without its record (docs/storage.md, "Durability").
struct AuditDurabilityBarrier: DurabilityBarrier {
    let log: AuditLog

    /// The last `seq` written: the store calls this under its lock right after the entry's record.
    func mark() -> Int { log.lastSeq }

    /// ``MediaAudit/AuditLog/sync(through:)``: free when a group commit already covered `mark`.
    func waitUntilDurable(_ mark: Int) throws { try log.sync(through: mark) }
}
