import MediaCore

/// Why a secret file (a signed-URL keys file, an origin token file) was refused: a stable ``code`` plus a
/// context that names the file and never contains a secret.
///
/// New codes may be added; switch over ``code`` with a `default` branch.
public struct SecretFileError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A stable reason code.
    public struct Code: ErrorCode {
        public let rawValue: String
        /// A code from its stable string, e.g. `"insecure-mode"`.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// The file does not exist, is not a regular file, cannot be read, or is over the size limit.
        public static let unreadable = Code(rawValue: "unreadable")
        /// The file is readable (or writable) by its group or by others (`mode & 077 != 0`).
        public static let insecureMode = Code(rawValue: "insecure-mode")
        /// The file's content is not in the expected format (the context names the line, never its secret).
        public static let malformed = Code(rawValue: "malformed")
    }

    /// The stable reason code.
    public let code: Code
    /// The file as given, e.g. `Policies/keys/receipts.keys`.
    public let file: String
    /// What is wrong, for people: e.g. `has mode 0644: readable by group or others`. Never contains a secret.
    public let problem: String
    /// What is allowed, for people: e.g. `a file only its owner can read or write (chmod 600)`.
    public let allowed: String

    public init(_ code: Code, file: String, problem: String, allowed: String) {
        self.code = code
        self.file = file
        self.problem = problem
        self.allowed = allowed
    }

    /// `<file>: <problem>; allowed: <allowed>`.
    public var description: String { "\(file): \(problem); allowed: \(allowed)" }
}
