/// Something a store did on its own that the service must audit: an eviction, an expiry, the
/// removal of a corrupt file, a shred.
public struct StorageEvent: Hashable, Sendable, CustomStringConvertible {
    /// What happened.
    public enum Kind: String, Hashable, Sendable {
        /// Removed to make room (``Reason/byteLimit``, ``Reason/countLimit``), or because its write-behind
        /// write failed (``Reason/writeFailed``). Audit event `evict`.
        case evict
        /// Removed by ``MediaStoring/sweep(now:)`` past `expiresAt`. Audit event `expire`.
        case expire
        /// A file that failed validation was removed (reason says why).
        case corrupt
        /// A sealed file was overwritten and unlinked (earlier process's file, or graceful stop). Audit event `shred`.
        case shred
    }

    /// Stable reason codes.
    public struct Reason: Hashable, Sendable, CustomStringConvertible {
        public let rawValue: String
        public init(_ rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        public static let byteLimit = Reason("byte-limit")
        public static let countLimit = Reason("count-limit")
        public static let expired = Reason("expired")
        /// File shorter or longer than its header says.
        public static let truncated = Reason("truncated")
        /// File does not start with the store's magic bytes.
        public static let badMagic = Reason("bad-magic")
        /// File written by another format version (for disk files: version 1, whose checksums were unkeyed).
        public static let foreignVersion = Reason("foreign-version")
        /// A disk file's header or file tag (HMAC-SHA256 under the install's ``IntegrityKey``) does not verify:
        /// flipped bytes, a body or header changed without the key, a file of another install.
        public static let badChecksum = Reason("bad-checksum")
        /// Metadata bytes do not decode, or name a different key.
        public static let malformed = Reason("malformed")
        /// The index held an entry whose file is gone (deleted behind the store's back).
        public static let missing = Reason("missing")
        /// A symlink or other non-regular file where an entry file or folder belongs.
        public static let notRegularFile = Reason("not-a-regular-file")
        /// A sealed file failed AES-GCM authentication (tampered, swapped, or wrong key).
        public static let authenticationFailure = Reason("authentication-failure")
        /// A sealed file left by an earlier process: unreadable by design.
        public static let previousProcess = Reason("previous-process")
        /// Graceful stop: the key was zeroed and the files removed.
        public static let stop = Reason("stop")
        /// A write-behind write failed (disk full, I/O error): the entry left the store.
        public static let writeFailed = Reason("write-failed")
    }

    public let kind: Kind
    /// The store's class.
    public let storageClass: StorageClassName
    /// Hex SHA-256 of the cache key (for files: the file name).
    public let keyDigest: String
    /// Bytes the store freed (memory: key + head + body; files: file size).
    public let bytes: Int
    /// The entry's tier, when known (not for unreadable files).
    public let tier: String?
    /// The entry's route, when known.
    public let route: String?
    /// The entry's partition, when known and partitioned.
    public let partition: String?
    public let reason: Reason
    /// The entry's cache key, when known, so the owner can drop it from its own indexes. Never part of
    /// ``description``, equality or hashing, and never audited: it can hold the URL of a private tier.
    public let storeKey: String?

    public init(
        kind: Kind, storageClass: StorageClassName, keyDigest: String, bytes: Int,
        tier: String?, route: String?, partition: String?, reason: Reason, storeKey: String? = nil
    ) {
        self.kind = kind
        self.storageClass = storageClass
        self.keyDigest = keyDigest
        self.bytes = bytes
        self.tier = tier
        self.route = route
        self.partition = partition
        self.reason = reason
        self.storeKey = storeKey
    }

    init(_ kind: Kind, _ storageClass: StorageClassName, digest: String, bytes: Int, metadata: EntryMetadata?, reason: Reason) {
        self.init(kind: kind, storageClass: storageClass, keyDigest: digest, bytes: bytes, tier: metadata?.tier,
                  route: metadata?.route, partition: metadata?.partition, reason: reason,
                  storeKey: metadata?.key)
    }

    public static func == (lhs: StorageEvent, rhs: StorageEvent) -> Bool {
        lhs.kind == rhs.kind && lhs.storageClass == rhs.storageClass && lhs.keyDigest == rhs.keyDigest
            && lhs.bytes == rhs.bytes && lhs.tier == rhs.tier && lhs.route == rhs.route
            && lhs.partition == rhs.partition && lhs.reason == rhs.reason
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(kind)
        hasher.combine(storageClass)
        hasher.combine(keyDigest)
        hasher.combine(bytes)
        hasher.combine(tier)
        hasher.combine(route)
        hasher.combine(partition)
        hasher.combine(reason)
    }

    public var description: String {
        "\(kind.rawValue) \(storageClass) \(keyDigest) bytes=\(bytes) tier=\(tier ?? "-") partition=\(partition ?? "-") reason=\(reason)"
    }
}

/// Receives a store's events on the thread that caused them. Every store (``MemoryStore``,
/// ``DiskStore``, ``EncryptedDiskStore``) reports under its lock, so the events are ordered with the
/// `record` closures of ``MediaStoring/store(_:for:recordingFirst:)`` (a handler must not call back
/// into the store that reports).
public typealias StorageEventHandler = @Sendable (StorageEvent) -> Void
