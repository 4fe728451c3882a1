#if canImport(Glibc)
    import Glibc
#endif

import MediaCore

/// Reads a file that holds secrets the way ssh reads a private key: it must be a regular file that neither
/// its group nor others may read or write (`mode & 077 == 0`, e.g. `chmod 600`), at most
/// ``maximumBytes`` long.
public enum SecretFile {
    /// Largest secret file read: 65,536 bytes.
    public static let maximumBytes = 65_536
    /// The allowed text of a mode refusal.
    public static let modeAllowed = "a regular file only its owner can read or write (chmod 600)"

    /// The file's bytes.
    /// - Throws: ``SecretFileError`` `unreadable` (missing, not a regular file, unreadable, over
    ///   ``maximumBytes``) or `insecure-mode` (names the mode, e.g. `0644`).
    public static func read(_ path: String) throws(SecretFileError) -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard descriptor >= 0 else {
            let reason = errno == ENOENT ? "does not exist" : errno == ELOOP ? "is a symbolic link" : "cannot be opened: \(SystemErrorText.current)"
            throw SecretFileError(.unreadable, file: path, problem: reason, allowed: modeAllowed)
        }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            throw SecretFileError(.unreadable, file: path, problem: "is not a regular file", allowed: modeAllowed)
        }
        let permissions = info.st_mode & 0o7777
        guard permissions & 0o077 == 0 else {
            throw SecretFileError(.insecureMode, file: path,
                                  problem: "has mode \(octal(permissions)): readable or writable by group or others",
                                  allowed: modeAllowed)
        }
        guard info.st_size <= maximumBytes else {
            throw SecretFileError(.unreadable, file: path, problem: "has \(info.st_size) bytes",
                                  allowed: "at most \(maximumBytes) bytes")
        }
        var bytes = [UInt8](repeating: 0, count: Int(info.st_size) + 1)
        var total = 0
        while total < bytes.count {
            let count = bytes.withUnsafeMutableBytes { buffer in
                Glibc.read(descriptor, buffer.baseAddress! + total, buffer.count - total)
            }
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else {
                throw SecretFileError(.unreadable, file: path, problem: "cannot be read: \(SystemErrorText.current)", allowed: modeAllowed)
            }
            if count == 0 { break }
            total += count
        }
        guard total <= maximumBytes else {
            throw SecretFileError(.unreadable, file: path, problem: "has more than \(maximumBytes) bytes",
                                  allowed: "at most \(maximumBytes) bytes")
        }
        return Array(bytes[..<total])
    }

    /// A mode as four octal digits, e.g. `0644`.
    static func octal(_ mode: mode_t) -> String {
        let digits = String(mode, radix: 8)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}
