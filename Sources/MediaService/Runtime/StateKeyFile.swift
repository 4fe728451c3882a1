import MediaCore
import MediaCrypto
import MediaSigning

#if canImport(Glibc)
    import Glibc
#endif

/// A 32-byte secret of the install, kept in the state directory under `keys/` (mode 0600 in a 0700 folder) and
/// made with OpenSSL's CSPRNG the first time it is needed: `keys/subject.key` (``SubjectKeyer``) and
/// `keys/integrity.key` (``IntegrityKeyFile``). Read like any secret file (``MediaSigning/SecretFile``): a file
/// its group or others may read is refused. Never printed or logged; it never leaves the state directory.
enum StateKeyFile {
    /// The key's length in bytes: 32.
    static let byteCount = 32

    /// The key at `<stateDirectory>/<relativePath>`, made (0600, `O_EXCL`, fsynced; its `keys/` folder 0700) when
    /// missing, and the folders fsynced after, so a power loss never loses a key that files were made under. Two
    /// processes making it at once: one writes, the other reads what it wrote.
    /// - Throws: ``MediaSigning/SecretFileError``: `unreadable` when the folder or file cannot be made or written
    ///   (`cannot be created: Permission denied (errno 13)`) or the random generator failed; for an existing file, what ``read(path:)``
    ///   throws.
    static func open(stateDirectory: String, relativePath: String) throws(SecretFileError) -> SymmetricKey {
        let folder = stateDirectory + "/keys"
        let path = stateDirectory + "/" + relativePath
        if mkdir(folder, 0o700) != 0 && errno != EEXIST {
            throw SecretFileError(.unreadable, file: folder, problem: "cannot be created: \(SystemErrorText.current)", allowed: "a folder")
        }
        guard let made = try? SymmetricKey(randomByteCount: byteCount) else {
            throw SecretFileError(.unreadable, file: path, problem: "cannot be made: the random generator failed",
                                  allowed: "a working OpenSSL CSPRNG")
        }
        let descriptor = Glibc.open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else { return try read(path: path) }
        let written = (try? made.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }) ?? -1
        // The reason is read at once: close and unlink below may set errno again.
        var failure = written < 0 ? SystemErrorText.current
            : written != byteCount ? "only \(written) of \(byteCount) bytes were written" : nil
        if fsync(descriptor) != 0, failure == nil { failure = SystemErrorText.current }
        close(descriptor)
        if let failure {
            unlink(path)
            throw SecretFileError(.unreadable, file: path, problem: "cannot be written: \(failure)",
                                  allowed: "a writable state directory")
        }
        syncFolder(folder)
        syncFolder(stateDirectory)
        return made
    }

    /// fsyncs the folder at `path` (its new entries durable); errors are ignored (the file itself is fsynced).
    private static func syncFolder(_ path: String) {
        let descriptor = Glibc.open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        _ = fsync(descriptor)
        close(descriptor)
    }

    /// The key at `<stateDirectory>/<relativePath>` if there is one (read-only: `mediactl audit`, `inspect`), else `nil`.
    /// - Throws: ``MediaSigning/SecretFileError`` for a file that exists but is refused.
    static func existing(stateDirectory: String, relativePath: String) throws(SecretFileError) -> SymmetricKey? {
        let path = stateDirectory + "/" + relativePath
        guard access(path, F_OK) == 0 else { return nil }
        return try read(path: path)
    }

    /// The key in `path`.
    /// - Throws: ``MediaSigning/SecretFileError`` as ``MediaSigning/SecretFile/read(_:)`` does, and `malformed`
    ///   (`has 31 bytes; allowed: 32 bytes (made by mediactl)`) for another length.
    static func read(path: String) throws(SecretFileError) -> SymmetricKey {
        var bytes = try SecretFile.read(path)
        defer { for index in bytes.indices { bytes[index] = 0 } }
        guard bytes.count == byteCount else {
            throw SecretFileError(.malformed, file: path, problem: "has \(bytes.count) bytes",
                                  allowed: "32 bytes (made by mediactl)")
        }
        return SymmetricKey(bytes: bytes)
    }
}
