import MediaCore

/// An error thrown by a ``MediaStoring`` store: a stable ``code`` plus context for people
/// that never contains body bytes, key material or cache keys of sealed entries.
///
/// New codes may be added; switch over ``code`` with a `default` branch.
public typealias StorageError = DomainError<StorageErrorCode>

/// The stable codes of ``StorageError``.
public struct StorageErrorCode: ErrorCode {
    public let rawValue: String
    init(_ rawValue: String) { self.rawValue = rawValue }

    /// The entry is larger than the store's per-entry cap or byte limit.
    public static let entryTooLarge = Self("entry-too-large")
    /// A file-system call failed (context names the call, the path and `errno`).
    public static let io = Self("io")
    /// A path the store must own is a symlink or not a directory.
    public static let unsafePath = Self("unsafe-path")
    /// A configuration value is out of range.
    public static let invalidConfiguration = Self("invalid-configuration")
    /// The store was stopped (its key destroyed); it stores nothing more.
    public static let stopped = Self("stopped")
    /// Sealing failed in MediaCrypto.
    public static let crypto = Self("crypto")
}
