import Foundation
import MediaAudit
import MediaStorage
import Synchronization

/// Files an earlier process left in `disk/<tier>/` or `sealed/<tier>/` that the current policies no longer
/// keep there: the tier was removed or renamed, or narrowed (for example `avatar` from `disk` to `memory`).
///
/// At start, each such folder is emptied through a store opened on it, so every removal is audited like any
/// other: a disk entry as `evict` with reason `tier-storage-changed`; a file that is not a readable entry as
/// `evict` `corrupt:<defect>`; a sealed file (unreadable without the earlier process's key) as `shred`
/// `unreadable-after-restart`, closed by a `shred` summary with the count. Without this, narrowing a tier
/// to memory would leave its plaintext files on disk for good, reported by `mediactl audit` at every run.
enum UnownedTierFolders {
    /// Empties every tier folder of `disk/` without a disk store in `runtimes`, and of `sealed/` without an
    /// encrypted-disk store. Disk files are read under `integrityKey` (the install's): one that does not verify is
    /// an `evict` `corrupt:bad-checksum` like any other.
    /// - Throws: ``MediaStorage/StorageError`` when a folder cannot be opened or read (the service does not
    ///   start: it would otherwise serve next to files it cannot account for).
    static func clear(stateDirectory: String, runtimes: [String: TierRuntime], integrityKey: IntegrityKey,
                      auditor: ServiceAuditor) throws {
        for name in tierFolders(stateDirectory + "/disk") where runtimes[name]?.disk == nil {
            // Opening indexes the entries and removes (and reports) the files that are not entries.
            let store = try DiskStore(
                directory: stateDirectory + "/disk/" + name,
                configuration: .init(byteLimit: Int.max / 4, entryByteLimit: Int.max / 4, synchronizesWrites: false),
                integrityKey: integrityKey, onEvent: { auditor.record($0, tier: name) })
            for metadata in store.removeAll(where: { _ in true }) { auditor.evictUnowned(metadata, tier: name) }
        }
        for name in tierFolders(stateDirectory + "/sealed") where runtimes[name]?.sealed == nil {
            // Opening shreds the files of an earlier process, each reported.
            let shredded = Atomic<Int>(0)
            let store = try EncryptedDiskStore(directory: stateDirectory + "/sealed/" + name, onEvent: { event in
                auditor.record(event, tier: name)
                if event.kind == .shred { shredded.add(1, ordering: .relaxed) }
            })
            store.stop()
            auditor.shredSummary(tier: name, count: shredded.load(ordering: .relaxed),
                                 reason: ReasonCode.unreadableAfterRestart.rawValue)
        }
    }

    /// Removes the disk entries stored under another key scope than the tier's now (``CacheKey/scope(of:)``): no
    /// request finds them any more, and they may hold what the tier must not serve. Each goes audited `evict`:
    /// reason `tier-metadata-changed` when the tier's `metadata` rule changed (entries stored under `keep`
    /// may carry the metadata a `strip` tier never serves), `cache-key-changed` for keys of an earlier version
    /// (without a tier).
    static func dropUnscopedKeys(runtimes: [String: TierRuntime], auditor: ServiceAuditor) {
        for (name, runtime) in runtimes.sorted(by: { $0.key < $1.key }) {
            guard let disk = runtime.disk else { continue }
            let separator = String(CacheKey.tierSeparator)
            let prefix = CacheKey.scope(of: runtime.tier) + separator
            let sameTier = [name + separator, name + CacheKey.stripScopeSuffix + separator]
            for metadata in disk.removeAll(where: { !$0.key.hasPrefix(prefix) }) {
                runtime.unindexStoredResponse(metadata.key)
                let reason = sameTier.contains { metadata.key.hasPrefix($0) } ? "tier-metadata-changed" : "cache-key-changed"
                auditor.evictUnowned(metadata, tier: name, reason: reason)
            }
        }
    }

    /// The names of the real folders (not symbolic links) directly inside `path`; none when it does not exist.
    static func tierFolders(_ path: String) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        return names.sorted().filter { name in
            var info = stat()
            return lstat(path + "/" + name, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
        }
    }
}
