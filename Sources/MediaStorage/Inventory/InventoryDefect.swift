import MediaCore

/// Why an inventory entry is not a well-formed object in its place: a stable ``code`` plus a detail
/// for people. New codes may be added; switch over ``code`` with a `default` branch.
public typealias InventoryDefect = DomainError<InventoryDefectCode>

/// The stable codes of ``InventoryDefect``.
public struct InventoryDefectCode: ErrorCode {
    public let rawValue: String
    init(_ rawValue: String) { self.rawValue = rawValue }

    /// The file name is not 64 lower-case hex characters (nor a temp-file name).
    public static let foreignName = Self("foreign-name")
    /// The file is not at `<folder>/<tier>/<ab>/<cd>/<name>` with `ab`, `cd` the name's first four hex digits.
    public static let misplaced = Self("misplaced")
    /// A disk file that is not a verified disk entry: bad magic, a version other than 2 (version 1's
    /// checksums were unkeyed), lengths that do not match its size, a header or file tag that does not
    /// verify under the integrity key (`bad-checksum`), or metadata that does not decode or whose key does
    /// not hash to the file name.
    public static let notADiskEntry = Self("not-a-disk-entry")
    /// A version 2 disk file scanned without an integrity key: its tags cannot be checked, so its metadata
    /// (tier, route) is not trusted and its body digest is unknown.
    public static let unverified = Self("unverified")
    /// A sealed-folder file without the sealed-object header or shorter than an empty sealed entry.
    public static let notSealed = Self("not-sealed")
    /// Not a regular file (symlink, FIFO, socket, device).
    public static let notRegular = Self("not-regular")
    /// The file could not be opened or read (the detail names `errno`).
    public static let unreadable = Self("unreadable")
}

extension InventoryDefect {
    /// What is wrong, for people (``context``; never file content).
    public var detail: String { context }
}
