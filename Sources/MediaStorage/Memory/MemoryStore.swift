import Synchronization

/// The `memory` storage class: a strict LRU in process memory with byte and count limits and a
/// per-entry cap. Thread-safe (one `Mutex`); bodies are shared, never copied.
///
/// An entry's cost is `key.utf8.count + head.count + body.count` bytes.
///
/// Events (evictions, expiries) are reported under the lock, right where the entry leaves, and the
/// `record` of ``store(_:for:recordingFirst:)`` runs under it right before the insert: an audit log
/// written from both lists each key's changes in the order the store made them (an old entry's `evict`
/// can never follow the `store` of its replacement). The event handler must not call back into this store.
/// - Complexity: O(1) ``entry(for:)``, ``store(_:for:)``, ``remove(_:)``; O(n) for sweeps and purges.
public final class MemoryStore: MediaStoring {
    /// Limits of a ``MemoryStore``.
    public struct Configuration: Sendable, Hashable {
        /// Maximum total cost in bytes. Default: 67,108,864 (64 MiB).
        public var byteLimit: Int
        /// Maximum number of entries. Default: 100,000.
        public var countLimit: Int
        /// Maximum cost of one entry in bytes; larger entries are refused. Default: `nil` = 10 % of ``byteLimit``.
        public var entryByteLimit: Int?

        public init(byteLimit: Int = 64 << 20, countLimit: Int = 100_000, entryByteLimit: Int? = nil) {
            self.byteLimit = byteLimit
            self.countLimit = countLimit
            self.entryByteLimit = entryByteLimit
        }

        /// ``entryByteLimit`` or its default.
        public var effectiveEntryByteLimit: Int { entryByteLimit ?? byteLimit / 10 }
    }

    public let configuration: Configuration
    public var storageClass: StorageClassName { .memory }
    let state = Mutex(LRUList<StoredEntry>())
    private let onEvent: StorageEventHandler

    /// A memory store.
    /// - Throws: ``StorageError`` `invalid-configuration` for a non-positive limit
    ///   (message: "memory byteLimit, countLimit and entryByteLimit must be positive").
    public init(configuration: Configuration = Configuration(), onEvent: @escaping StorageEventHandler = { _ in }) throws {
        guard configuration.byteLimit > 0, configuration.countLimit > 0, configuration.effectiveEntryByteLimit > 0 else {
            throw StorageError(.invalidConfiguration, "memory byteLimit, countLimit and entryByteLimit must be positive")
        }
        self.configuration = configuration
        self.onEvent = onEvent
    }

    /// What `entry` costs under `key`: `key.utf8.count + head.count + body.count` bytes, plus 32 per cache tag digest.
    public static func cost(of entry: StoredEntry, for key: String) -> Int {
        key.utf8.count + entry.metadata.head.count + entry.body.count + entry.metadata.tags.count * CacheTagDigest.byteCount
    }

    /// The largest cost one entry may have: the per-entry cap, at most the byte limit.
    public var entryCap: Int { min(configuration.effectiveEntryByteLimit, configuration.byteLimit) }

    /// Whether ``store(_:for:)`` would take `entry` under `key` (its cost is within ``entryCap``).
    public func accepts(_ entry: StoredEntry, for key: String) -> Bool {
        Self.cost(of: entry, for: key) <= entryCap
    }

    public func entry(for key: String) -> StoredEntry? {
        state.withLock { $0.touch(key) }
    }

    public func store(_ entry: StoredEntry, for key: String) throws {
        try store(entry, for: key, recordingFirst: {})
    }

    /// ``store(_:for:)``; `record` runs once the per-entry cap is checked, under the lock right before the
    /// insert, and the evictions the insert causes are reported under the same lock after it (so no other
    /// thread's eviction of this key's previous entry can be reported in between). When `record` throws,
    /// nothing is stored.
    public func store(_ entry: StoredEntry, for key: String, recordingFirst record: () throws -> Void) throws {
        var entry = entry
        entry.metadata.key = key
        entry.metadata.storageClass = .memory
        entry.metadata.bodyByteCount = entry.body.count
        let cost = Self.cost(of: entry, for: key)
        let cap = entryCap
        guard cost <= cap else {
            throw StorageError(.entryTooLarge, "memory entry of \(cost) bytes exceeds the per-entry cap of \(cap) bytes")
        }
        try state.withLock { list in
            try record()
            list.insert(key, entry, cost: cost)
            while list.totalCost > configuration.byteLimit || list.count > configuration.countLimit {
                let reason: StorageEvent.Reason = list.totalCost > configuration.byteLimit ? .byteLimit : .countLimit
                guard let victim = list.popLeastRecent() else { break }
                onEvent(StorageEvent(.evict, .memory, digest: KeyDigest.hex(of: victim.value.metadata.key), bytes: victim.cost,
                                     metadata: victim.value.metadata, reason: reason))
            }
        }
    }

    @discardableResult public func remove(_ key: String) -> EntryMetadata? {
        state.withLock { $0.remove(key) }?.value.metadata
    }

    @discardableResult public func removeAll(where predicate: (EntryMetadata) -> Bool) -> [EntryMetadata] {
        state.withLock { list in
            var removed: [EntryMetadata] = []
            for item in list.leastRecentFirst() where predicate(item.value.metadata) {
                list.remove(item.key)
                removed.append(item.value.metadata)
            }
            return removed
        }
    }

    public func inventory() -> [EntryMetadata] {
        state.withLock { $0.leastRecentFirst().map(\.value.metadata) }
    }

    public var totals: StorageTotals {
        state.withLock { StorageTotals(bytes: $0.totalCost, count: $0.count) }
    }

    /// Removes the entries past `expiresAt`, reporting each under the lock (as evictions are).
    @discardableResult public func sweep(now: Double) -> [EntryMetadata] {
        state.withLock { list in
            var expired: [EntryMetadata] = []
            for item in list.leastRecentFirst() where item.value.metadata.expiresAt <= now {
                list.remove(item.key)
                onEvent(StorageEvent(.expire, .memory, digest: KeyDigest.hex(of: item.value.metadata.key), bytes: item.cost,
                                     metadata: item.value.metadata, reason: .expired))
                expired.append(item.value.metadata)
            }
            return expired
        }
    }
}
