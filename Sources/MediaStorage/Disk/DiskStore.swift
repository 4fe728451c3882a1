/// The `disk` storage class: one plain file per entry under `<state-dir>/disk/ab/cd/<64-hex>`,
/// surviving restarts. Format: ``DiskFileFormat`` (docs/storage.md).
///
/// Writes are atomic (temp file in the same folder, write, `fsync`, wait for the ``DurabilityBarrier``
/// (the entry's audit record durable), `rename`, `fsync` of the folder). The byte limit is enforced on every write by evicting the least recently used entries
/// (LRU by last access, kept in memory, rebuilt at start in modification-time order). Files are
/// 0600, folders 0700; symlinks are never followed. At start, leftover temp files are removed and
/// corrupt, truncated, foreign-version and symlinked files are removed and reported as
/// ``StorageEvent/Kind/corrupt``; on read, a file whose HMAC-SHA256 tags do not verify under the store's
/// ``IntegrityKey`` is too (`bad-checksum`: flipped bytes, a body swapped by someone without the key, a file of
/// another install), and so is a version 1 file (`foreign-version`: its checksums were unkeyed).
public final class DiskStore: FileBackedStore, @unchecked Sendable {
    /// Limits of a ``DiskStore`` (``FileStoreConfiguration``).
    public typealias Configuration = FileStoreConfiguration

    /// The folder name inside the state directory: `"disk"`.
    public static let folderName = "disk"

    /// The key every file's tags are made and checked under (the install's, `<state>/keys/integrity.key`).
    public let integrityKey: IntegrityKey

    /// Opens (creating with mode 0700) `directory`, usually `<state-dir>/disk`, and scans it:
    /// reads each file's fixed header and metadata (not bodies) to rebuild the index. Events of
    /// the scan go to `onEvent` before `init` returns.
    /// - Parameters:
    ///   - integrityKey: the key of the files' tags (``DiskFileFormat``): files made under another key are
    ///     removed as corrupt (`bad-checksum`) at the scan. Open every store of one state directory with the
    ///     same key, the install's.
    ///   - barrier: waited for before each file is renamed into place (the entry's audit record durable;
    ///     docs/storage.md, "Durability"). Default `nil`: nothing to wait for.
    ///   - observer: told of every write point (crash tests). Default `nil`.
    /// - Throws: ``StorageError`` `invalid-configuration` ("disk byteLimit, entryByteLimit, countLimit and scanThreads must be positive"),
    ///   `unsafe-path` when `directory` is a symlink or not a folder, `io`.
    public init(directory: String, configuration: Configuration = Configuration(), integrityKey: IntegrityKey,
                barrier: (any DurabilityBarrier)? = nil, observer: (any FileWriteObserver)? = nil,
                onEvent: @escaping StorageEventHandler = { _ in }) throws {
        guard configuration.byteLimit > 0, configuration.effectiveEntryByteLimit > 0, configuration.countLimit > 0,
              configuration.scanThreads > 0 else {
            throw StorageError(.invalidConfiguration, "disk byteLimit, entryByteLimit, countLimit and scanThreads must be positive")
        }
        self.integrityKey = integrityKey
        let files = try FileStore(
            storageClass: .disk, rootPath: directory, format: DiskFileFormat(key: integrityKey), byteLimit: configuration.byteLimit,
            countLimit: configuration.countLimit,
            entryByteLimit: configuration.effectiveEntryByteLimit, synchronizes: configuration.synchronizesWrites,
            scanThreads: configuration.scanThreads, writesBehind: configuration.writesBehind,
            pendingByteLimit: configuration.pendingByteLimit, barrier: barrier, observer: observer, onEvent: onEvent)
        super.init(files: files, configuration: configuration)
        files.emit(files.scan(.index))
    }
}
