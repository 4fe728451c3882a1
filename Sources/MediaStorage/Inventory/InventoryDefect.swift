import MediaCore

/// Why an inventory entry is not a well-formed object in its place: a stable ``code`` plus a detail
/// for people. New codes may be added; switch over ``code`` with a `default` branch.
public struct InventoryDefect: Hashable, Sendable, CustomStringConvertible {
    /// A stable defect code.
    public struct Code: ErrorCode {
        public let rawValue: String
        init(_ rawValue: String) { self.rawValue = rawValue }

        /// The file name is not 64 lower-case hex characters (nor a temp-file name).
        public static let foreignName = Code("foreign-name")
        /// The file is not at `<folder>/<tier>/<ab>/<cd>/<name>` with `ab`, `cd` the name's first four hex digits.
        public static let misplaced = Code("misplaced")
        /// A disk file that is not a verified disk entry: bad magic, a version other than 2 (version 1's
        /// checksums were unkeyed), lengths that do not match its size, a header or file tag that does not
        /// verify under the integrity key (`bad-checksum`), or metadata that does not decode or whose key does
        /// not hash to the file name.
        public static let notADiskEntry = Code("not-a-disk-entry")
        /// A version 2 disk file scanned without an integrity key: its tags cannot be checked, so its metadata
        /// (tier, route) is not trusted and its body digest is unknown.
        public static let unverified = Code("unverified")
        /// A sealed-folder file without the sealed-object header or shorter than an empty sealed entry.
        public static let notSealed = Code("not-sealed")
        /// Not a regular file (symlink, FIFO, socket, device).
        public static let notRegular = Code("not-regular")
        /// The file could not be opened or read (the detail names `errno`).
        public static let unreadable = Code("unreadable")
    }

    /// The defect code.
    public let code: Code
    /// What is wrong, for people (never contains file content).
    public let detail: String

    public init(_ code: Code, _ detail: String) {
        self.code = code
        self.detail = detail
    }

    /// `<code>: <detail>`.
    public var description: String { "\(code): \(detail)" }
}
