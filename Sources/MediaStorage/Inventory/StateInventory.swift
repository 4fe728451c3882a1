import Glibc

/// A read-only inventory of what a state directory persists: every entry under `disk/` and
/// `sealed/` (docs/architecture.md, "State directory"), for `mediactl audit`.
///
/// The service lays objects out as `disk/<tier>/ab/cd/<64-hex>` and `sealed/<tier>/ab/cd/<64-hex>`
/// (``DiskStore``, ``EncryptedDiskStore``). The scan reports whatever is there, in or out of that
/// layout, and never writes, renames, removes or follows a symlink: folders are opened relative to
/// their parent with `O_NOFOLLOW`, files are opened `O_RDONLY | O_NOFOLLOW`; a sealed file is read only as
/// far as its header, a disk file whole (its tags verified and its body digested under the integrity key).
public struct StateInventory: Hashable, Sendable {
    /// Scan limits.
    public struct Configuration: Hashable, Sendable {
        /// Deepest folder level walked below `disk/` or `sealed/` (the layout uses 3: tier, `ab`, `cd`);
        /// deeper folders are reported as one ``InventoryDefect/Code/misplaced`` entry each and not entered.
        /// Default: 8.
        public var maximumDepth: Int

        public init(maximumDepth: Int = 8) {
            self.maximumDepth = maximumDepth
        }
    }

    /// Every entry found, sorted by ``InventoryItem/path`` (byte order).
    public let items: [InventoryItem]

    public init(items: [InventoryItem]) {
        self.items = items.sorted { $0.path.utf8.lexicographicallyPrecedes($1.path.utf8) }
    }

    /// Entries that stand for objects: regular files other than temp files, and non-regular entries.
    public var objects: [InventoryItem] { items.filter { $0.kind != .temporary } }

    /// Leftover temp files (`<64-hex>.tmp-<16-hex>`): not objects.
    public var temporaryFiles: [InventoryItem] { items.filter { $0.kind == .temporary } }

    /// Entries with a defect (foreign name, misplaced, not a disk entry, unverified, not sealed, not regular,
    /// unreadable).
    public var defective: [InventoryItem] { items.filter { $0.defect != nil } }

    /// Scans `<stateDirectory>/disk` and `<stateDirectory>/sealed`. A missing folder contributes nothing.
    ///
    /// - Parameters:
    ///   - stateDirectory: the state directory; the path itself may be a symlink chosen by the user,
    ///     nothing below it is followed.
    ///   - integrityKey: the install's key (`<state>/keys/integrity.key`): disk files' tags are verified and
    ///     their bodies digested under it (``InventoryItem/bodyDigest``). `nil`: a disk file of version 2 is
    ///     reported ``InventoryDefect/Code/unverified``, with no tier, route or digest.
    ///   - configuration: see ``Configuration``.
    /// - Returns: the entries, sorted by path.
    /// - Throws: ``StorageError`` `io` when `stateDirectory` cannot be opened as a folder
    ///   (`open <path>: No such file or directory (errno 2)`).
    /// - Complexity: O(entries + disk bytes); one `fstatat` per entry, one open per file, at most two reads per
    ///   sealed file, every byte of a disk file (bodies in 1 MiB reads) once.
    public static func scan(
        stateDirectory: String, integrityKey: IntegrityKey?, configuration: Configuration = Configuration()
    ) throws(StorageError) -> StateInventory {
        let root = open(stateDirectory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard root >= 0 else { throw POSIX.failure("open", stateDirectory) }
        defer { close(root) }
        var scanner = InventoryScanner(maximumDepth: configuration.maximumDepth, integrityKey: integrityKey)
        for folder in InventoryItem.Folder.allCases {
            scanner.scanTop(folder, in: root)
        }
        return StateInventory(items: scanner.items)
    }
}
