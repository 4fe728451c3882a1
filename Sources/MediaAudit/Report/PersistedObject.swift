/// One file found under the state directory's object folders; the CLI scans, this module only judges.
public struct PersistedObject: Hashable, Sendable, Codable {
    /// The folder the file is in.
    public enum Folder: String, Hashable, Sendable, Codable, CaseIterable {
        /// `disk/`: plaintext objects of disk tiers.
        case disk
        /// `sealed/`: AES-256-GCM objects of encrypted-disk tiers.
        case sealed

        /// The storage class the folder implements: `disk` or `encrypted-disk`.
        public var storage: AuditStorage { self == .disk ? .disk : .encryptedDisk }
    }

    /// The folder.
    public let folder: Folder
    /// The object's key as named on disk (normally 64 hex characters, the audit `key`). Any string is
    /// accepted so that stray files are reported too.
    public let key: String
    /// File size in bytes.
    public let bytes: Int
    /// The tier from the object's readable metadata (disk objects), or `nil` when unreadable (sealed objects).
    public let tier: String?
    /// `true` when the file has the sealed-object format (meaningful for `sealed/`).
    public let isSealed: Bool
    /// The file's path relative to the state directory (`disk/public/ab/cd/<key>`), named in violation
    /// evidence; `nil` gives `<folder>/<key>`.
    public let path: String?
    /// The length in bytes of the body a `disk/` file holds, when the scan found the disk layout; `nil` when it
    /// did not (and for sealed objects, whose bodies are encrypted).
    public let bodyBytes: Int?
    /// The keyed digest of that body (the integrity key's body digest, what a `store` record's `bodyDigest`
    /// names), or `nil` when the scan could not compute it (no integrity key, no disk layout).
    public let bodyDigest: AuditDigest?
    /// Why ``bodyDigest`` is `nil` for a `disk/` object, for people (the scan's defect, e.g. `unverified: no
    /// integrity key to check its tags`); shown by a `body-mismatch` that cannot compare digests.
    public let bodyUnchecked: String?
    /// The id of the data key a `sealed/` file's header names (16 hex digits), or `nil`.
    public let sealedKeyID: String?

    public init(folder: Folder, key: String, bytes: Int, tier: String? = nil, isSealed: Bool = false,
                path: String? = nil, bodyBytes: Int? = nil, bodyDigest: AuditDigest? = nil, bodyUnchecked: String? = nil,
                sealedKeyID: String? = nil) {
        self.sealedKeyID = sealedKeyID
        self.folder = folder
        self.key = key
        self.bytes = bytes
        self.tier = tier
        self.isSealed = isSealed
        self.path = path
        self.bodyBytes = bodyBytes
        self.bodyDigest = bodyDigest
        self.bodyUnchecked = bodyUnchecked
    }
}
