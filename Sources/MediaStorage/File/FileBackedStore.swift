/// What the `disk` and `encrypted-disk` stores share: ``MediaStoring`` over one ``FileStore`` (its index, LRU
/// eviction, atomic writes, write-behind and sweep), whatever the file format. ``DiskStore`` and
/// ``EncryptedDiskStore`` add how they open (scan or shred) and, for the sealed one, its key.
///
/// `@unchecked Sendable`: a class that is not final cannot be checked; every stored property is an immutable `let`
/// of a `Sendable` type, and subclasses add only such properties.
public class FileBackedStore: MediaStoring, @unchecked Sendable {
    /// The limits the store was opened with.
    public let configuration: FileStoreConfiguration
    let files: FileStore

    init(files: FileStore, configuration: FileStoreConfiguration) {
        self.files = files
        self.configuration = configuration
    }

    public var storageClass: StorageClassName { files.storageClass }

    /// The folder holding the entries.
    public var directory: String { files.rootPath }

    /// The path of the file that holds (or would hold) `key`: `directory/ab/cd/<64-hex>`.
    public func filePath(for key: String) -> String { files.path(of: KeyDigest.hex(of: key)) }

    public func entry(for key: String) -> StoredEntry? { files.entry(for: key) }
    public func store(_ entry: StoredEntry, for key: String) throws { try files.store(entry, for: key) }
    public func store(_ entry: StoredEntry, for key: String, recordingFirst record: () throws -> Void) throws {
        try files.store(entry, for: key, recordingFirst: record)
    }
    @discardableResult public func remove(_ key: String) -> EntryMetadata? { files.remove(key) }
    @discardableResult public func removeAll(where predicate: (EntryMetadata) -> Bool) -> [EntryMetadata] {
        files.removeAll(where: predicate).map(\.item.metadata)
    }
    public func inventory() -> [EntryMetadata] { files.inventory() }
    public var totals: StorageTotals { files.totals }
    @discardableResult public func sweep(now: Double) -> [EntryMetadata] { files.sweep(now: now) }
    /// Waits until every write-behind write queued so far has finished. No-op without write-behind.
    public func flush() { files.flush() }
    /// File bytes of the entries still waiting for the write-behind writer (0 without write-behind).
    public var pendingWriteBytes: Int { files.pendingBytes }
}
