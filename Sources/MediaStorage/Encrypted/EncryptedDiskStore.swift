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
    /// Limits of an ``EncryptedDiskStore`` (``FileStoreConfiguration``; it scans nothing at start, so ``FileStoreConfiguration/scanThreads`` is unused).
    public typealias Configuration = FileStoreConfiguration

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
