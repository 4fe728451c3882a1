/// One directory entry found under the state directory's `disk/` or `sealed/` folder by
/// ``StateInventory/scan(stateDirectory:integrityKey:configuration:)``. A disk file is read whole (its body
/// only to compute its keyed digest, ``bodyDigest``), a sealed file only as far as its 8-byte header; no body
/// byte is kept.
public struct InventoryItem: Hashable, Sendable {
    /// The object folder the entry is under.
    public enum Folder: String, Hashable, Sendable, CaseIterable {
        /// `disk/`: plaintext files of `disk` tiers (format `MCSD`).
        case disk
        /// `sealed/`: AES-256-GCM files of `encrypted-disk` tiers (format `MCSE`).
        case sealed
    }

    /// What the entry is.
    public enum Kind: String, Hashable, Sendable {
        /// A regular file that is not a temp file: a stored object, or something standing in for one
        /// (see ``InventoryItem/defect``).
        case object
        /// A store's temp file (`<64-hex>.tmp-<16-hex>`), left by a write in progress or a crash.
        case temporary
        /// Not a regular file and not a folder (symlink, FIFO, socket, device); never followed.
        case notRegular = "not-regular"
    }

    /// The folder: `disk` or `sealed`.
    public let folder: Folder
    /// The path relative to the state directory, e.g. `disk/public/ab/cd/abcd…` (64 hex).
    public let path: String
    /// The first folder below `disk/` or `sealed/` (the tier the store was opened for, e.g. `public`),
    /// or `nil` for an entry directly inside `disk/` or `sealed/`.
    public let tierFolder: String?
    /// The file name: for an object, the hex SHA-256 of its cache key (the audit `key`).
    public let name: String
    /// What the entry is.
    public let kind: Kind
    /// The size in bytes (`st_size`; for a symlink, the length of its target text).
    public let bytes: Int
    /// The tier from the metadata of a disk object that is a verified disk entry (its tags verify under
    /// the integrity key), else `nil` (always `nil` for sealed objects: their metadata is encrypted).
    public let tier: String?
    /// The route from the metadata of a verified disk object, else `nil`.
    public let route: String?
    /// B, the body's length in bytes, of a disk file with the disk layout (format version 1 or 2) whose
    /// lengths match its size, verified or not; else `nil` (and for sealed objects).
    public let bodyBytes: Int?
    /// The body's keyed digest (`IntegrityKey.bodyDigest(of:)`, 64 lower-case hex: what a `store` record's
    /// `bodyDigest` names) of a disk file with the disk layout, computed whether or not its tags verify;
    /// `nil` without an integrity key, for other files, and for sealed objects.
    public let bodyDigest: String?
    /// `true` for a sealed-folder object with a well-formed sealed header: magic `MCSE`, version 2 (or 1, from an
    /// earlier build), reserved 0, and at least the bytes of an empty sealed entry (48; 40 in version 1). Always
    /// `false` in `disk/`. The tag cannot be checked without the serving process's key.
    public let isSealed: Bool
    /// The id of the data key that sealed it (16 hex digits, from a version-2 header), else `nil`: `mediactl audit`
    /// tells a file whose key the log says was destroyed (`shredded-remnant`).
    public let sealedKeyID: String?
    /// Why the entry is not a well-formed object in its place, or `nil` when it is.
    public let defect: InventoryDefect?
    /// The file's device and inode numbers when scanned: a file found at the same path later is the same
    /// file only if they match (stores write a new file and rename it into place). Not part of equality:
    /// it identifies the file at the moment of the scan, not what the item says about it.
    public let fileID: FileID?

    /// A file's identity: `st_dev` and `st_ino`.
    public struct FileID: Hashable, Sendable {
        public let device: UInt64
        public let inode: UInt64

        public init(device: UInt64, inode: UInt64) {
            self.device = device
            self.inode = inode
        }
    }

    public init(
        folder: Folder, path: String, tierFolder: String?, name: String, kind: Kind, bytes: Int, tier: String? = nil,
        route: String? = nil, bodyBytes: Int? = nil, bodyDigest: String? = nil, isSealed: Bool = false,
        sealedKeyID: String? = nil, defect: InventoryDefect? = nil, fileID: FileID? = nil
    ) {
        self.folder = folder
        self.path = path
        self.tierFolder = tierFolder
        self.name = name
        self.kind = kind
        self.bytes = bytes
        self.tier = tier
        self.route = route
        self.bodyBytes = bodyBytes
        self.bodyDigest = bodyDigest
        self.isSealed = isSealed
        self.sealedKeyID = sealedKeyID
        self.defect = defect
        self.fileID = fileID
    }
}

extension InventoryItem {
    public static func == (lhs: InventoryItem, rhs: InventoryItem) -> Bool {
        lhs.folder == rhs.folder && lhs.path == rhs.path && lhs.tierFolder == rhs.tierFolder && lhs.name == rhs.name
            && lhs.kind == rhs.kind && lhs.bytes == rhs.bytes && lhs.tier == rhs.tier && lhs.route == rhs.route
            && lhs.bodyBytes == rhs.bodyBytes && lhs.bodyDigest == rhs.bodyDigest && lhs.isSealed == rhs.isSealed
            && lhs.sealedKeyID == rhs.sealedKeyID && lhs.defect == rhs.defect
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(folder)
        hasher.combine(path)
        hasher.combine(kind)
        hasher.combine(bytes)
    }
}
