/// Limits of the file stores, ``DiskStore`` and ``EncryptedDiskStore`` (their `Configuration`).
public struct FileStoreConfiguration: Sendable, Hashable {
    /// Maximum total file bytes. Default: 1,073,741,824 (1 GiB).
    public var byteLimit: Int
    /// Maximum file bytes of one entry. Default: `nil` = 10 % of ``byteLimit``.
    public var entryByteLimit: Int?
    /// Maximum index units (``EntryMetadata/indexUnits``): one per entry, which costs index memory (about 0.9 KB;
    /// docs/storage.md, "Index memory"), and one more per KiB of its cache tag digests. Past it the least recently
    /// used entries are evicted (reason `count-limit`). Default: `Int.max`
    /// (no limit); the service sets `diskBytes / 4096`.
    public var countLimit: Int
    /// Whether writes `fsync` the file and its folder. Default: `true`. Turn off only in benchmarks.
    public var synchronizesWrites: Bool
    /// Threads the startup scan of a ``DiskStore`` uses (top-level folders are split between them; an
    /// ``EncryptedDiskStore`` shreds what it finds instead and scans nothing). Default: 2.
    public var scanThreads: Int
    /// Write-behind: `store(_:for:)` indexes the entry and returns at once, serving it from memory (an encrypted-disk
    /// entry in plaintext, in process memory only) until one background writer has written (sealed) and fsynced its
    /// file. Default: `false`.
    public var writesBehind: Bool
    /// With ``writesBehind``: the file bytes that may wait for the writer; a store past it writes in
    /// the caller (back-pressure). Default: 67,108,864 (64 MiB).
    public var pendingByteLimit: Int

    public init(byteLimit: Int = 1 << 30, entryByteLimit: Int? = nil, countLimit: Int = .max,
                synchronizesWrites: Bool = true, scanThreads: Int = 2,
                writesBehind: Bool = false, pendingByteLimit: Int = 64 << 20) {
        self.byteLimit = byteLimit
        self.entryByteLimit = entryByteLimit
        self.countLimit = countLimit
        self.synchronizesWrites = synchronizesWrites
        self.scanThreads = scanThreads
        self.writesBehind = writesBehind
        self.pendingByteLimit = pendingByteLimit
    }

    /// ``entryByteLimit`` or its default.
    public var effectiveEntryByteLimit: Int { entryByteLimit ?? byteLimit / 10 }
}
