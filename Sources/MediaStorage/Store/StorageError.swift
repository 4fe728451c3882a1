import MediaCore

/// An error thrown by a ``MediaStoring`` store: a stable ``code`` plus context for people.
///
/// New codes may be added; switch over ``code`` with a `default` branch.
public struct StorageError: CodedError {
    /// The stable error code.
    public struct Code: ErrorCode {
        public let rawValue: String
        init(_ rawValue: String) { self.rawValue = rawValue }

        /// The entry is larger than the store's per-entry cap or byte limit.
        public static let entryTooLarge = Code("entry-too-large")
        /// A file-system call failed (context names the call, the path and `errno`).
        public static let io = Code("io")
        /// A path the store must own is a symlink or not a directory.
        public static let unsafePath = Code("unsafe-path")
        /// A configuration value is out of range.
        public static let invalidConfiguration = Code("invalid-configuration")
        /// The store was stopped (its key destroyed); it stores nothing more.
        public static let stopped = Code("stopped")
        /// Sealing failed in MediaCrypto.
        public static let crypto = Code("crypto")
    }

    /// The stable error code.
    public let code: Code
    /// What failed. Never contains body bytes, key material or cache keys of sealed entries.
    public let context: String

    public init(_ code: Code, _ context: String) {
        self.code = code
        self.context = context
    }
}
