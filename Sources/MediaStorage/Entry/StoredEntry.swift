import Synchronization

/// One cache entry: metadata plus body bytes.
///
/// A value type with one reference inside: copying an entry (as ``MemoryStore/entry(for:)`` does
/// on every hit) costs one retain, and `body` is a copy-on-write array, so the memory store hands
/// out the same storage it holds (no copy). Setting a property copies the pair (copy-on-write).
public struct StoredEntry: Hashable, Sendable {
    private final class Storage: Sendable {
        let metadata: EntryMetadata
        let body: [UInt8]
        // Holds only `Sendable` values (enforced by `decoded(as:_:)`).
        nonisolated(unsafe) let decoded = AtomicLazyReference<AnyObject>()
        /// The body's keyed digest, once computed (``StoredEntry/bodyDigest(under:)``).
        let digest = AtomicLazyReference<BodyDigest>()

        init(_ metadata: EntryMetadata, _ body: [UInt8], digest: BodyDigest? = nil) {
            self.metadata = metadata
            self.body = body
            if let digest { _ = self.digest.storeIfNil(digest) }
        }
    }

    /// A body digest and the key it was made under.
    final class BodyDigest: Sendable {
        let key: IntegrityKey
        let bytes: [UInt8]

        init(key: IntegrityKey, bytes: [UInt8]) {
            self.key = key
            self.bytes = bytes
        }
    }

    private var storage: Storage

    /// Key, tier, route, partition, head, times.
    public var metadata: EntryMetadata {
        get { storage.metadata }
        // Same body: its digest stays.
        set { storage = Storage(newValue, storage.body, digest: storage.digest.load()) }
    }

    /// The response body.
    public var body: [UInt8] {
        get { storage.body }
        set {
            var metadata = storage.metadata
            metadata.bodyByteCount = newValue.count
            storage = Storage(metadata, newValue)
        }
    }

    /// The object that owns ``body``'s buffer: a response that keeps it until its write completes keeps this entry
    /// alive, so ``SharedEntries`` can hand the same buffer to the next reader (hardening item 3). Its identity is
    /// the entry's: two values with the same owner share one buffer.
    public var owner: any AnyObject & Sendable { storage }

    /// The entry whose ``owner`` is `owner`, or `nil` when `owner` is not an entry's.
    public init?(owner: AnyObject) {
        guard let storage = owner as? Storage else { return nil }
        self.storage = storage
    }

    /// An entry; `metadata.bodyByteCount` is set from `body`.
    public init(metadata: EntryMetadata, body: [UInt8]) {
        var metadata = metadata
        metadata.bodyByteCount = body.count
        storage = Storage(metadata, body)
    }

    /// An entry read from a file whose body digest under `key` was computed while verifying it.
    init(metadata: EntryMetadata, body: [UInt8], bodyDigest: [UInt8], key: IntegrityKey) {
        var metadata = metadata
        metadata.bodyByteCount = body.count
        storage = Storage(metadata, body, digest: BodyDigest(key: key, bytes: bodyDigest))
    }

    /// The keyed digest of ``body`` under `key` (``IntegrityKey/bodyDigest(of:)``, 32 bytes), computed once and
    /// kept with the entry: the service names it in the `store` record, and the disk store writing the entry
    /// tags the file with the same value instead of hashing the body again. An entry read from a disk file
    /// under `key` has it already (its read verified it). A new body starts without one; a new metadata keeps it.
    /// Lock-free; if two threads race, both compute the same bytes.
    public func bodyDigest(under key: IntegrityKey) -> [UInt8] {
        if let known = storage.digest.load(), known.key === key { return known.bytes }
        let made = BodyDigest(key: key, bytes: key.bodyDigest(of: storage.body))
        let kept = storage.digest.storeIfNil(made)
        return kept.key === key ? kept.bytes : made.bytes
    }

    /// A value the caller derived from this entry's metadata (e.g. its decoded head), computed once
    /// and kept with the entry: hits served from the memory store share the same storage, so they
    /// decode the head once instead of on every hit. Lock-free; if two threads race, both compute and
    /// one result is kept. A new metadata or body starts without one.
    /// - Parameter make: computes the value when there is none yet.
    public func decoded<T: AnyObject & Sendable>(as type: T.Type, _ make: () -> T?) -> T? {
        if let existing = storage.decoded.load() { return existing as? T }
        guard let made = make() else { return nil }
        return storage.decoded.storeIfNil(made) as? T
    }

    public static func == (lhs: StoredEntry, rhs: StoredEntry) -> Bool {
        lhs.storage === rhs.storage || (lhs.storage.metadata == rhs.storage.metadata && lhs.storage.body == rhs.storage.body)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(storage.metadata)
        hasher.combine(storage.body)
    }
}
