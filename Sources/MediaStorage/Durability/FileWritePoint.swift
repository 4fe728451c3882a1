/// A change a file store is about to make on disk, reported to a ``FileWriteObserver`` right before it is
/// made. Crash tests cut the power at each point: everything reported before it happened, nothing after.
public struct FileWritePoint: Hashable, Sendable, CustomStringConvertible {
    /// The change.
    public enum Kind: String, Hashable, Sendable, CaseIterable {
        /// Create and `write(2)` the entry's temp file (`<64-hex>.tmp-<16-hex>`, in its folder).
        case writeTemporary = "write-temporary"
        /// `fsync` the temp file (only when the store synchronizes writes).
        case syncTemporary = "sync-temporary"
        /// Rename the temp file to `<64-hex>`: the object becomes visible (and may be durable from here on).
        case rename
        /// `fsync` the folder holding the file (only when the store synchronizes writes).
        case syncFolder = "sync-folder"
        /// Unlink the entry's file (removed, evicted, expired, corrupt).
        case unlink
    }

    public let kind: Kind
    /// The store's class.
    public let storageClass: StorageClassName
    /// The entry's file name: the hex SHA-256 of its cache key (the audit `key`).
    public let digest: String

    public init(_ kind: Kind, storageClass: StorageClassName, digest: String) {
        self.kind = kind
        self.storageClass = storageClass
        self.digest = digest
    }

    public var description: String { "\(storageClass) \(kind.rawValue) \(digest.prefix(8))" }
}

/// Observes a file store's write points (``FileWritePoint``), in the order it reaches them, on the thread
/// that makes the change, sometimes under the store's lock: it must not call back into the store. For tests
/// (power-cut simulation); production stores have none.
public protocol FileWriteObserver: Sendable {
    /// Called right before the change `point` is made.
    func willReach(_ point: FileWritePoint)
}
