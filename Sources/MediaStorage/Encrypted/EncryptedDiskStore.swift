import Foundation
import MediaCrypto

/// The `encrypted-disk` storage class: like ``DiskStore`` under `<state-dir>/sealed/`, but every
/// file is AES-256-GCM sealed (``SealedFileFormat``) with a data key held only in process memory: one for each
/// partition and one for the objects without a partition (``DataKeyring``), made as needed and rotated.
///
/// Associated data binds each file to its name, format version and key id, so swapped or relabelled files
/// fail. Metadata is sealed too: no body byte, cache key or URL is on disk in plaintext. Files left
/// by an earlier process are unreadable by design: at start each is overwritten, unlinked and
/// reported as ``StorageEvent/Kind/shred`` (reason `previous-process`). ``destroyKeys(partition:)`` makes a
/// partition's files unreadable before they are removed (crypto-shredding). ``stop()`` zeroes the keys
/// and removes every file (reported as shreds, reason `stop`).
public final class EncryptedDiskStore: FileBackedStore, @unchecked Sendable {
    /// Limits of an ``EncryptedDiskStore`` (``FileStoreConfiguration``; it scans nothing at start, so ``FileStoreConfiguration/scanThreads`` is unused).
    public typealias Configuration = FileStoreConfiguration

    /// The folder name inside the state directory: `"sealed"`.
    public static let folderName = "sealed"

    /// Seconds a data key seals for before its partition gets a new one, by default: 86,400 (a day).
    public static let defaultKeyLifetime: Double = 86_400

    private let keys: DataKeyring

    /// Opens (creating with mode 0700) `directory`, usually `<state-dir>/sealed`, and shreds every
    /// file in it (events go to `onEvent` before `init` returns).
    /// - Parameters:
    ///   - key: the data key of objects without a partition; default `nil` = a new random 32-byte key. Only tests
    ///     pass one.
    ///   - keyLifetime: seconds a data key seals for (``defaultKeyLifetime``); a key also seals at most 2^32 objects.
    ///   - clock: seconds since 1970, for the keys' ages.
    ///   - barrier, observer: as for ``DiskStore/init(directory:configuration:barrier:observer:onEvent:)``.
    /// - Throws: ``StorageError`` `invalid-configuration` ("encrypted-disk byteLimit, entryByteLimit and countLimit must be positive"),
    ///   `unsafe-path`, `io`, `crypto` when no key can be generated.
    public init(directory: String, configuration: Configuration = Configuration(), key: SymmetricKey? = nil,
                keyLifetime: Double = EncryptedDiskStore.defaultKeyLifetime,
                clock: @escaping @Sendable () -> Double = { Date().timeIntervalSince1970 },
                barrier: (any DurabilityBarrier)? = nil, observer: (any FileWriteObserver)? = nil,
                onEvent: @escaping StorageEventHandler = { _ in }) throws {
        guard configuration.byteLimit > 0, configuration.effectiveEntryByteLimit > 0, configuration.countLimit > 0 else {
            throw StorageError(.invalidConfiguration, "encrypted-disk byteLimit, entryByteLimit and countLimit must be positive")
        }
        do {
            keys = try DataKeyring(unpartitioned: key, lifetime: keyLifetime, clock: clock)
        } catch {
            throw StorageError(.crypto, "no key: \(error)")
        }
        let files = try FileStore(
            storageClass: .encryptedDisk, rootPath: directory, format: SealedFileFormat(keys: keys),
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
        keys.destroyAll()
        files.emit(files.stopAndRemoveAll())
    }

    /// The id (16 hex digits) of the data key that seals `partition`'s next object (`nil`: objects without a
    /// partition), made if needed: what its `store` record names. `nil` once the store stopped.
    public func keyID(partition: String?) -> String? {
        (try? keys.current(partition: partition, counting: false))??.hexID
    }

    /// The ids (16 hex digits) of `partition`'s live data keys, oldest first: what a purge records before it destroys
    /// them.
    public func keyIDs(partition: String) -> [String] {
        keys.ids(partition: partition)
    }

    /// Destroys every data key of `partition` (its files cannot be opened from now on, by anyone) and returns their
    /// ids, oldest first; the caller removes the files next.
    public func destroyKeys(partition: String) -> [String] {
        keys.destroy(partition: partition)
    }
}
