import MediaCrypto
import MediaSigning

#if canImport(Glibc)
    import Glibc
#endif

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

    /// The key of `stateDirectory`, made (0600, in a 0700 `keys/` folder) when missing.
    /// - Throws: ``MediaSigning/SecretFileError`` (an existing file readable by others, or not 32 bytes).
    static func open(stateDirectory: String) throws(SecretFileError) -> SubjectKeyer {
        let folder = stateDirectory + "/keys"
        let path = stateDirectory + "/" + relativePath
        if mkdir(folder, 0o700) != 0 && errno != EEXIST {
            throw SecretFileError(.unreadable, file: folder, problem: "cannot be created (errno \(errno))", allowed: "a folder")
        }
        guard let made = try? SymmetricKey(randomByteCount: 32) else {
            throw SecretFileError(.unreadable, file: path, problem: "cannot be made: the random generator failed",
                                  allowed: "a working OpenSSL CSPRNG")
        }
        do {
            let descriptor = Glibc.open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
            if descriptor >= 0 {
                let written = (try? made.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }) ?? -1
                let synced = fsync(descriptor) == 0
                close(descriptor)
                guard written == 32, synced else {
                    unlink(path)
                    throw SecretFileError(.unreadable, file: path, problem: "cannot be written (errno \(errno))", allowed: "a writable state directory")
                }
                return SubjectKeyer(key: made)
            }
        }
        return try read(path: path)
    }

    /// The key of `stateDirectory` if it has one (read-only: `inspect`), else `nil`.
    /// - Throws: ``MediaSigning/SecretFileError`` for a file that exists but is refused.
    public static func existing(stateDirectory: String) throws(SecretFileError) -> SubjectKeyer? {
        let path = stateDirectory + "/" + relativePath
        guard access(path, F_OK) == 0 else { return nil }
        return try read(path: path)
    }

    private static func read(path: String) throws(SecretFileError) -> SubjectKeyer {
        var bytes = try SecretFile.read(path)
        defer { for index in bytes.indices { bytes[index] = 0 } }
        guard bytes.count == 32 else {
            throw SecretFileError(.malformed, file: path, problem: "has \(bytes.count) bytes", allowed: "32 bytes (made by mediactl)")
        }
        return SubjectKeyer(key: SymmetricKey(bytes: bytes))
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
