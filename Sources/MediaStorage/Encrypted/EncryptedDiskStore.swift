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
public final class EncryptedDiskStore: FileBackedStore, @unchecked Sendable {
    /// Limits of an ``EncryptedDiskStore`` (``FileStoreConfiguration``; it scans nothing at start, so ``FileStoreConfiguration/scanThreads`` is unused).
    public typealias Configuration = FileStoreConfiguration

    /// The folder name inside the state directory: `"sealed"`.
    public static let folderName = "sealed"

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
        let nonces: NonceSequence
        do {
            self.key = try key ?? SymmetricKey()
            nonces = try NonceSequence()
        } catch {
            throw StorageError(.crypto, "no key: \(error)")
        }
        let files = try FileStore(
            storageClass: .encryptedDisk, rootPath: directory, format: SealedFileFormat(key: self.key, nonces: nonces),
            byteLimit: configuration.byteLimit, countLimit: configuration.countLimit, entryByteLimit: configuration.effectiveEntryByteLimit,
            synchronizes: configuration.synchronizesWrites, writesBehind: configuration.writesBehind,
            pendingByteLimit: configuration.pendingByteLimit, barrier: barrier, observer: observer, onEvent: onEvent)
        super.init(files: files, configuration: configuration)
        files.emit(files.scan(.shred(.previousProcess)))
    }

    /// Graceful stop: zeroes the key, then removes every file, reporting each as a shred (reason `stop`).
    /// Afterwards ``entry(for:)`` returns `nil` and ``store(_:for:)`` throws `stopped`. Idempotent.
    /// Write-behind writes not started are dropped (their entries are reported as shreds too); one in
    /// progress finishes first, so the key is never zeroed under it.
    public func stop() {
        files.quiesce()
        key.destroy()
        files.emit(files.stopAndRemoveAll())
    }
}
