/// A thread-safe, synchronous store of cache entries, addressed by the cache key string.
///
/// Implementations: ``MemoryStore``, ``DiskStore``, ``EncryptedDiskStore``. Evictions, expiries,
/// corrupt-file removals and shreds are reported through the store's event handler
/// (``StorageEvent``); explicit ``remove(_:)`` / ``removeAll(where:)`` are not reported, they
/// return what they removed so the caller audits the purge.
public protocol MediaStoring: AnyObject, Sendable {
    /// The storage class this store implements.
    var storageClass: StorageClassName { get }

    /// The entry stored for `key`, or `nil` when there is none (or it was unreadable: then it was
    /// removed and reported as ``StorageEvent/Kind/corrupt``). Marks the entry most recently used.
    /// Expired entries are returned until ``sweep(now:)`` removes them.
    func entry(for key: String) -> StoredEntry?

    /// Stores `entry` under `key`, replacing any previous entry. `metadata.key` is set to `key`,
    /// `metadata.storageClass` to ``storageClass``. Evicts least recently used entries to fit.
    /// - Throws: ``StorageError`` `entry-too-large` when the entry exceeds the per-entry cap,
    ///   `io` on a file-system failure, `stopped` after a graceful stop.
    func store(_ entry: StoredEntry, for key: String) throws

    /// ``store(_:for:)``, calling `record` first, at the moment the entry becomes visible: stores call it
    /// under their lock, just before the entry is indexed (and before its file can appear), and
    /// report the evictions the insert causes under the same lock, after it. An audit log written from
    /// `record` and from the store's events then lists each key's changes in the order the store made
    /// them. When `record` throws, nothing is stored and the error is rethrown; when the store refuses
    /// the entry first (`entry-too-large`, `stopped`), `record` is not called.
    /// Default: `record()`, then ``store(_:for:)``.
    func store(_ entry: StoredEntry, for key: String, recordingFirst record: () throws -> Void) throws

    /// Removes the entry for `key`. Returns its metadata, or `nil` when nothing was stored.
    @discardableResult func remove(_ key: String) -> EntryMetadata?

    /// Removes every entry whose metadata matches (purge by route, partition, or all).
    /// Returns the removed entries' metadata, least recently used first. `predicate` runs under
    /// the store's lock: it must not call the store.
    @discardableResult func removeAll(where predicate: (EntryMetadata) -> Bool) -> [EntryMetadata]

    /// Metadata of every entry, least recently used first (for audit reconciliation). File stores leave
    /// `head` empty (their index does not keep it; ``entry(for:)`` reads it from the file).
    /// - Complexity: O(n).
    func inventory() -> [EntryMetadata]

    /// Bytes and entry count held.
    var totals: StorageTotals { get }

    /// Removes every entry with `expiresAt <= now` (seconds since epoch), reporting each as
    /// ``StorageEvent/Kind/expire``. Returns the removed entries' metadata.
    /// - Complexity: O(n).
    @discardableResult func sweep(now: Double) -> [EntryMetadata]

    /// Waits until every write the store accepted has reached its file (write-behind stores);
    /// returns at once for stores that write before ``store(_:for:)`` returns. Default: no-op.
    func flush()
}

extension MediaStoring {
    public func flush() {}

    public func store(_ entry: StoredEntry, for key: String, recordingFirst record: () throws -> Void) throws {
        try record()
        try store(entry, for: key)
    }
}
