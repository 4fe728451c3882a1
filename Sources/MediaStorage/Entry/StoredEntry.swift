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

        init(_ metadata: EntryMetadata, _ body: [UInt8]) {
            self.metadata = metadata
            self.body = body
        }
    }

    private var storage: Storage

    /// Key, tier, route, partition, head, times.
    public var metadata: EntryMetadata {
        get { storage.metadata }
        set { storage = Storage(newValue, storage.body) }
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

    /// An entry; `metadata.bodyByteCount` is set from `body`.
    public init(metadata: EntryMetadata, body: [UInt8]) {
        var metadata = metadata
        metadata.bodyByteCount = body.count
        storage = Storage(metadata, body)
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
