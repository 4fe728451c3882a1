import MediaAudit
import MediaStorage

/// Observers of every write point of a service's file stores and audit log, for crash tests that cut the
/// power between writes (docs/storage.md, "Durability"). Production services have none.
public struct DurabilityObservers: Sendable {
    /// Told of each file store's write points (temp file written and fsynced, rename, folder fsync, unlink).
    public var files: (any FileWriteObserver)?
    /// Told of the audit log's write points (append, fsync, rotation) and of each fsync that returned.
    public var audit: (any AuditWriteObserver)?

    public init(files: (any FileWriteObserver)? = nil, audit: (any AuditWriteObserver)? = nil) {
        self.files = files
        self.audit = audit
    }
}
