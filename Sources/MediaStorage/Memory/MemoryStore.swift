import Synchronization

/// The `memory` storage class: a strict LRU in process memory with byte and count limits and a
/// per-entry cap. Thread-safe (one `Mutex`); bodies are shared, never copied.
///
/// An entry's cost is `key.utf8.count + head.count + body.count` bytes.
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
    private let state = Mutex(LRUList<StoredEntry>())
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

    public func entry(for key: String) -> StoredEntry? {
        state.withLock { $0.touch(key) }
    }

    public func store(_ entry: StoredEntry, for key: String) throws {
        try store(entry, for: key, recordingFirst: {})
    }

    /// ``store(_:for:)``; `record` runs once the per-entry cap is checked, before the insert (outside the
    /// lock: memory entries are not files, and the audit report does not reconcile them).
    public func store(_ entry: StoredEntry, for key: String, recordingFirst record: () throws -> Void) throws {
        var entry = entry
        entry.metadata.key = key
        entry.metadata.storageClass = .memory
        entry.metadata.bodyByteCount = entry.body.count
        let cost = key.utf8.count + entry.metadata.head.count + entry.body.count
        let cap = min(configuration.effectiveEntryByteLimit, configuration.byteLimit)
        guard cost <= cap else {
            throw StorageError(.entryTooLarge, "memory entry of \(cost) bytes exceeds the per-entry cap of \(cap) bytes")
        }
        try record()
        var evicted: [(StoredEntry, Int, StorageEvent.Reason)] = []
        state.withLock { list in
            list.insert(key, entry, cost: cost)
            while list.totalCost > configuration.byteLimit || list.count > configuration.countLimit {
                let reason: StorageEvent.Reason = list.totalCost > configuration.byteLimit ? .byteLimit : .countLimit
                guard let victim = list.popLeastRecent() else { break }
                evicted.append((victim.value, victim.cost, reason))
            }
        }
        for (victim, cost, reason) in evicted {
            onEvent(StorageEvent(.evict, .memory, digest: KeyDigest.hex(of: victim.metadata.key), bytes: cost,
                                 metadata: victim.metadata, reason: reason))
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

    @discardableResult public func sweep(now: Double) -> [EntryMetadata] {
        let expired: [(EntryMetadata, Int)] = state.withLock { list in
            var out: [(EntryMetadata, Int)] = []
            for item in list.leastRecentFirst() where item.value.metadata.expiresAt <= now {
                list.remove(item.key)
                out.append((item.value.metadata, item.cost))
            }
            return out
        }
        for (metadata, cost) in expired {
            onEvent(StorageEvent(.expire, .memory, digest: KeyDigest.hex(of: metadata.key), bytes: cost,
                                 metadata: metadata, reason: .expired))
        }
        return expired.map(\.0)
    }
}
