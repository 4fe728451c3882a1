import MediaCore
import MediaCrypto
import MediaSigning

/// Maps signed-URL subjects to partitions: hex HMAC-SHA256 of `"mediactl-subject-v1\n" + sub` under the
/// install's subject key, `<state>/keys/subject.key` (32 random bytes, mode 0600, made when a policy set first has a
/// tier with `signedURLs`, or by the first purge of a subject).
///
/// The namespace is apart from bearer-token partitions (``PartitionKeyer``, another key and domain), so a
/// subject never opens a credential's partition. The key outlives restarts, so one subject's partition digest
/// stays the same in the audit log across them (and `mediactl inspect --state-dir` can show it); it never
/// leaves the state directory and is never logged.
public final class SubjectKeyer: Sendable, CustomStringConvertible {
    static let domain = Array("mediactl-subject-v1\n".utf8)
    /// The key file under a state directory: `keys/subject.key`.
    public static let relativePath = "keys/subject.key"

    private let key: SymmetricKey

    init(key: SymmetricKey) {
        self.key = key
    }

    /// The key of `stateDirectory`, made (0600, in a 0700 `keys/` folder) when missing (``StateKeyFile``).
    /// - Throws: ``MediaSigning/SecretFileError`` (an existing file readable by others, or not 32 bytes).
    static func open(stateDirectory: String) throws(SecretFileError) -> SubjectKeyer {
        SubjectKeyer(key: try StateKeyFile.open(stateDirectory: stateDirectory, relativePath: relativePath))
    }

    /// The key of `stateDirectory` if it has one (read-only: `inspect`), else `nil`.
    /// - Throws: ``MediaSigning/SecretFileError`` for a file that exists but is refused.
    public static func existing(stateDirectory: String) throws(SecretFileError) -> SubjectKeyer? {
        try StateKeyFile.existing(stateDirectory: stateDirectory, relativePath: relativePath).map(SubjectKeyer.init(key:))
    }

    /// The partition of `subject` (64 lower-case hex digits), or `nil` after ``destroyKey()``.
    public func partition(forSubject subject: String) -> String? {
        guard let code = try? HMACSHA256.authenticationCode(for: Self.domain + Array(subject.utf8), key: key) else { return nil }
        return Hex.encode(code)
    }

    /// Zeroes the in-memory copy (the file stays); later calls return `nil`.
    func destroyKey() { key.destroy() }

    public var description: String { "SubjectKeyer(<redacted>)" }
}
