import MediaCrypto

/// The `encrypted-disk` storage class: like ``DiskStore`` under `<state-dir>/sealed/`, but every
/// file is AES-256-GCM sealed (``SealedFileFormat``) with a key generated when the store is made,
/// held only in process memory.
///
/// Associated data binds each file to its name and format version, so swapped or relabelled files
/// fail. Metadata is sealed too: no body byte, cache key or URL is on disk in plaintext. Files left
/// by an earlier process are unreadable by design: at start each is overwritten, unlinked and
/// reported as ``StorageEvent/Kind/shred`` (reason `previous-process`). ``stop()`` zeroes the key
/// and removes every file (reported as shreds, reason `stop`).
public final class EncryptedDiskStore: MediaStoring {
    /// Limits of an ``EncryptedDiskStore``.
    public struct Configuration: Sendable, Hashable {
        /// Maximum total file bytes. Default: 1,073,741,824 (1 GiB).
        public var byteLimit: Int
        /// Maximum file bytes of one entry. Default: `nil` = 10 % of ``byteLimit``.
        public var entryByteLimit: Int?
        /// Maximum index units (``EntryMetadata/indexUnits``): one per entry, which costs index memory (about 0.9 KB;
        /// docs/storage.md, "Index memory"), and one more per KiB of its cache tag digests. Past it the least recently
        /// used entries are evicted (reason `count-limit`). Default: `Int.max`
        /// (no limit); the service sets `diskBytes / 4096`.
        public var countLimit: Int
        /// Whether writes `fsync` the file and its folder. Default: `true`.
        public var synchronizesWrites: Bool
        /// Write-behind, as ``DiskStore/Configuration/writesBehind``: the entry is held (in plaintext, in
        /// process memory only) until the background writer has sealed and written its file. Default: `false`.
        public var writesBehind: Bool
        /// As ``DiskStore/Configuration/pendingByteLimit``. Default: 67,108,864 (64 MiB).
        public var pendingByteLimit: Int

        public init(byteLimit: Int = 1 << 30, entryByteLimit: Int? = nil, countLimit: Int = .max, synchronizesWrites: Bool = true,
                    writesBehind: Bool = false, pendingByteLimit: Int = 64 << 20) {
            self.byteLimit = byteLimit
            self.entryByteLimit = entryByteLimit
            self.countLimit = countLimit
            self.synchronizesWrites = synchronizesWrites
            self.writesBehind = writesBehind
            self.pendingByteLimit = pendingByteLimit
        }

        /// ``entryByteLimit`` or its default.
        public var effectiveEntryByteLimit: Int { entryByteLimit ?? byteLimit / 10 }
    }

    /// The folder name inside the state directory: `"sealed"`.
    public static let folderName = "sealed"

    public let configuration: Configuration
    public var storageClass: StorageClassName { .encryptedDisk }
    let files: FileStore
    private let key: SymmetricKey

    /// Opens (creating with mode 0700) `directory`, usually `<state-dir>/sealed`, shreds every
    /// file in it (events go to `onEvent` before `init` returns), and generates a fresh key.
    /// - Parameters:
    ///   - key: the sealing key; default `nil` = a new random 32-byte key. Only tests pass one.
    ///   - barrier, observer: as for ``DiskStore/init(directory:configuration:barrier:observer:onEvent:)``.
    /// - Throws: ``StorageError`` `invalid-configuration` ("encrypted-disk byteLimit, entryByteLimit and countLimit must be positive"),
    ///   `unsafe-path`, `io`, `crypto` when no key can be generated.
    public init(directory: String, configuration: Configuration = Configuration(), key: SymmetricKey? = nil,
                barrier: (any DurabilityBarrier)? = nil, observer: (any FileWriteObserver)? = nil,
                onEvent: @escaping StorageEventHandler = { _ in }) throws {
        guard configuration.byteLimit > 0, configuration.effectiveEntryByteLimit > 0, configuration.countLimit > 0 else {
            throw StorageError(.invalidConfiguration, "encrypted-disk byteLimit, entryByteLimit and countLimit must be positive")
        }
        self.configuration = configuration
        let nonces: NonceSequence
        do {
            self.key = try key ?? SymmetricKey()
            nonces = try NonceSequence()
        } catch {
            throw StorageError(.crypto, "no key: \(error)")
        }
        files = try FileStore(
            storageClass: .encryptedDisk, rootPath: directory, format: SealedFileFormat(key: self.key, nonces: nonces),
            byteLimit: configuration.byteLimit, countLimit: configuration.countLimit, entryByteLimit: configuration.effectiveEntryByteLimit,
            synchronizes: configuration.synchronizesWrites, writesBehind: configuration.writesBehind,
            pendingByteLimit: configuration.pendingByteLimit, barrier: barrier, observer: observer, onEvent: onEvent)
        files.emit(files.scan(.shred(.previousProcess)))
    }

    /// The folder holding the sealed files.
    public var directory: String { files.rootPath }

    /// The path of the file that holds (or would hold) `key`: `directory/ab/cd/<64-hex>`.
    public func filePath(for key: String) -> String { files.path(of: KeyDigest.hex(of: key)) }

    /// Graceful stop: zeroes the key, then removes every file, reporting each as a shred (reason `stop`).
    /// Afterwards ``entry(for:)`` returns `nil` and ``store(_:for:)`` throws `stopped`. Idempotent.
    /// Write-behind writes not started are dropped (their entries are reported as shreds too); one in
    /// progress finishes first, so the key is never zeroed under it.
    public func stop() {
        files.quiesce()
        key.destroy()
        files.emit(files.stopAndRemoveAll())
    }

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
