/// Why a file could not be used as an entry.
struct FileDefect: Error, Hashable {
    let reason: StorageEvent.Reason
    init(_ reason: StorageEvent.Reason) { self.reason = reason }
}

/// How a file store lays out one entry in one file. Implementations: ``DiskFileFormat``, ``SealedFileFormat``.
protocol EntryFileFormat: Sendable {
    /// The size in bytes of the file for metadata of `metadataCount` bytes and a body of `bodyCount` bytes.
    func fileSize(metadataCount: Int, bodyCount: Int) -> Int

    /// Writes the whole file of `entry` (its `metadata` encoded by the caller) to `fd` (a new, empty temp file).
    /// `name` is the final file name (64 hex).
    func write(metadata: [UInt8], entry: StoredEntry, name: String, to fd: Int32, path: String) throws

    /// Reads and verifies the whole file of `size` bytes open at `fd`.
    func read(from fd: Int32, size: Int, name: String) -> Result<StoredEntry, FileDefect>

    /// Reads and verifies only the fixed header and the metadata (startup scan), or `nil` when
    /// the format cannot be scanned (sealed files).
    func readMetadata(from fd: Int32, size: Int, name: String) -> Result<EntryMetadata, FileDefect>?
}
