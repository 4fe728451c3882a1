import Dispatch
import Glibc
import MediaCrypto
import Synchronization

/// The shared engine of ``DiskStore`` and ``EncryptedDiskStore``: one file per entry at
/// `root/ab/cd/<64-hex SHA-256 of the key>`, an in-memory LRU index by key (cost = file size),
/// atomic writes, no symlink ever followed.
///
/// File I/O happens outside the lock except rename and unlink, which happen under it so the
/// index and the folder always agree.
///
/// With write-behind (`writesBehind`), ``store(_:for:)`` indexes the entry at once and holds it in
/// memory (``Item/pending``) while one serial writer writes its file; the entry is served from memory
/// meanwhile. Every removal (remove, purge, sweep, eviction, stop) drops the pending entry under the
/// lock, and the writer renames its file into place only when the index still holds that very
/// version, so a removed entry's file never appears afterwards.
///
/// Durability (docs/storage.md, "Durability"): a temp file is written and fsynced, then — outside the lock —
/// the store waits for its ``DurabilityBarrier`` (the entry's audit record fsynced), and only then renames
/// the file into place and fsyncs the folder. Writing synchronously follows the same order: the entry is
/// indexed (served from memory) while the caller waits for the barrier. So a power loss never leaves an
/// object file without its record.
final class FileStore: Sendable {
    struct Item {
        var digest: String
        /// The entry's metadata without its encoded head (``EntryMetadata/indexed``): the file has it.
        var metadata: EntryMetadata
        var generation: UInt64
        /// The entry while its file is not written yet (write-behind); `nil` once the file is in place.
        var pending: Pending? = nil
    }

    /// An entry waiting for its file: what the writer writes and what reads return meanwhile.
    struct Pending {
        var entry: StoredEntry
        var encodedMetadata: [UInt8]
        /// The file size, as counted in the index.
        var size: Int
        /// The ``DurabilityBarrier`` mark taken right after the entry's record (`nil` without a barrier).
        var mark: Int? = nil
        /// Whether ``State/pendingBytes`` counts it: write-behind entries do; an entry a synchronous store
        /// indexes while its caller waits for the barrier does not.
        var counted = true
    }

    struct State {
        var list = LRUList<Item>()
        var generation: UInt64 = 0
        var stopped = false
        /// File bytes of the entries whose write is pending.
        var pendingBytes = 0

        /// Accounts for `item` leaving the index (its pending write, if any, is then skipped).
        mutating func forget(_ item: Item) {
            if let pending = item.pending, pending.counted { pendingBytes -= pending.size }
        }
    }

    let storageClass: StorageClassName
    let rootPath: String
    let rootFD: Int32
    let format: any EntryFileFormat
    let byteLimit: Int
    /// Most index units the index holds (``EntryMetadata/indexUnits``: one per entry, one more per KiB of its cache
    /// tag digests; each costs memory: docs/storage.md, "Index memory"); `Int.max`: no limit.
    let countLimit: Int
    let entryByteLimit: Int
    let synchronizes: Bool
    let scanThreads: Int
    let onEvent: StorageEventHandler
    let state = Mutex(State())
    /// The serial writer of pending entries; `nil` without write-behind.
    let writer: DispatchQueue?
    /// Pending file bytes beyond which ``store(_:for:)`` writes in the caller instead (back-pressure).
    let pendingByteLimit: Int
    /// Waited for before a file is renamed into place; `nil`: nothing to wait for (no audit log of its own).
    let barrier: (any DurabilityBarrier)?
    /// Told of every write point (tests); `nil` in production.
    let observer: (any FileWriteObserver)?

    /// Opens (creating with mode 0700) `rootPath`. Its parent is created if missing.
    /// - Throws: `unsafe-path` when `rootPath` is a symlink or not a folder; `io`.
    init(storageClass: StorageClassName, rootPath: String, format: any EntryFileFormat, byteLimit: Int,
         countLimit: Int = .max, entryByteLimit: Int,
         synchronizes: Bool, scanThreads: Int = 2, writesBehind: Bool = false, pendingByteLimit: Int = 64 << 20,
         barrier: (any DurabilityBarrier)? = nil, observer: (any FileWriteObserver)? = nil,
         onEvent: @escaping StorageEventHandler) throws {
        var rootPath = rootPath
        while rootPath.count > 1, rootPath.hasSuffix("/") { rootPath.removeLast() }
        self.storageClass = storageClass
        self.rootPath = rootPath
        self.format = format
        self.byteLimit = byteLimit
        self.countLimit = countLimit
        self.entryByteLimit = entryByteLimit
        self.synchronizes = synchronizes
        self.scanThreads = scanThreads
        self.onEvent = onEvent
        self.pendingByteLimit = pendingByteLimit
        self.barrier = barrier
        self.observer = observer
        writer = writesBehind ? DispatchQueue(label: "mediactl.\(storageClass).writer") : nil
        let parent = rootPath.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        let leaf = String(rootPath.split(separator: "/").last ?? "")
        try Self.makeParents(parent)
        let parentFD = open(parent.isEmpty ? (rootPath.hasPrefix("/") ? "/" : ".") : parent, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard parentFD >= 0 else { throw POSIX.failure("open", parent) }
        defer { close(parentFD) }
        rootFD = try POSIX.openDirectory(leaf, in: parentFD, create: true, path: rootPath)
        fchmod(rootFD, 0o700)
    }

    deinit { close(rootFD) }

    private static func makeParents(_ path: String) throws {
        guard !path.isEmpty else { return }
        var current = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            current += "/" + component
            if mkdir(current, 0o700) != 0, errno != EEXIST { throw POSIX.failure("mkdir", current) }
        }
    }

    static func folders(of digest: String) -> (String, String) {
        let utf8 = Array(digest.utf8)
        return (String(decoding: utf8[0..<2], as: UTF8.self), String(decoding: utf8[2..<4], as: UTF8.self))
    }

    func path(of digest: String) -> String {
        let (first, second) = Self.folders(of: digest)
        return "\(rootPath)/\(first)/\(second)/\(digest)"
    }

    /// Calls `body` with the descriptor of the folder `ab/cd` holding `digest`, or returns `nil`
    /// when it does not exist (and `create` is false).
    func withFolder<R>(of digest: String, create: Bool, _ body: (Int32) throws -> R) throws -> R? {
        let (first, second) = Self.folders(of: digest)
        let outer: Int32
        do { outer = try POSIX.openDirectory(first, in: rootFD, create: create, path: "\(rootPath)/\(first)") } catch let error as StorageError where !create && error.code == .io {
            return nil
        }
        defer { close(outer) }
        let inner: Int32
        do { inner = try POSIX.openDirectory(second, in: outer, create: create, path: "\(rootPath)/\(first)/\(second)") } catch let error as StorageError where !create && error.code == .io {
            return nil
        }
        defer { close(inner) }
        return try body(inner)
    }

    /// Unlinks the file of `digest` (never following a symlink). Errors are ignored: a missing file is already gone.
    func unlinkFile(_ digest: String) {
        _ = try? withFolder(of: digest, create: false) { folder in
            reach(.unlink, digest)
            return unlinkat(folder, digest, 0)
        }
    }

    /// Tells the observer (tests) that the change `kind` to the file of `digest` is about to be made.
    @inline(__always)
    func reach(_ kind: FileWritePoint.Kind, _ digest: String) {
        observer?.willReach(FileWritePoint(kind, storageClass: storageClass, digest: digest))
    }

    func emit(_ events: [StorageEvent]) {
        for event in events { onEvent(event) }
    }
}

extension EntryMetadata {
    /// What a file store's in-memory index keeps of an entry: everything but the encoded stored head
    /// (a few hundred bytes per entry, read back from the file with the body). Its inventory, events
    /// and removals carry this form.
    var indexed: EntryMetadata {
        var copy = self
        copy.head = []
        return copy
    }
}
