#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

import MediaCore

/// Whole-file reads and writes with `errno` turned into ``CommandError`` messages such as
/// `cannot read 'x': No such file or directory`.
enum FileAccess {
    /// Reads at most `limit` bytes of the regular file at `path`.
    /// - Returns: the bytes, or `nil` when the file holds more than `limit` bytes.
    /// - Throws: ``CommandError`` `unreadableFile` (exit 2) naming `what` and `path`.
    static func readFile(_ path: String, limit: Int, what: String) throws(CommandError) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw unreadable(what, path, errno) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw unreadable(what, path, errno) }
        guard (info.st_mode & S_IFMT) == S_IFREG else { throw unreadable(what, path, notRegular) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw unreadable(what, path, errno)
            }
            if count == 0 { return bytes }
            bytes.append(contentsOf: buffer[0..<count])
            if bytes.count > limit { return nil }
        }
    }

    /// Creates or truncates `path` with mode 0600 (when created) and writes `bytes` in full.
    /// - Parameter what: names the file in the error (`cannot write the JUnit report 'x': …`); `nil`:
    ///   `cannot write 'x': …`.
    /// - Throws: ``CommandError`` `unwritableFile` (exit 2).
    static func writeFile(_ bytes: [UInt8], to path: String, what: String? = nil) throws(CommandError) {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw unwritable(what, path, errno) }
        var failure: Int32 = 0
        bytes.withUnsafeBufferPointer { buffer in
            guard var base = buffer.baseAddress else { return }
            var remaining = buffer.count
            while remaining > 0 {
                let written = write(fd, base, remaining)
                if written < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    return
                }
                remaining -= written
                base += written
            }
        }
        if close(fd) != 0, failure == 0 { failure = errno }
        if failure != 0 { throw unwritable(what, path, failure) }
    }

    /// Marker for "not a regular file", reported as such instead of an `errno` text.
    private static let notRegular: Int32 = -1

    private static func unreadable(_ what: String, _ path: String, _ code: Int32) -> CommandError {
        CommandError(.unreadableFile, "cannot read \(what) '\(path)': \(reason(code))", exitCode: .unusableInput)
    }

    private static func unwritable(_ what: String?, _ path: String, _ code: Int32) -> CommandError {
        let file = what.map { "\($0) '\(path)'" } ?? "'\(path)'"
        return CommandError(.unwritableFile, "cannot write \(file): \(reason(code))", exitCode: .unusableInput)
    }

    private static func reason(_ code: Int32) -> String {
        code == notRegular ? "not a regular file" : SystemErrorText.describe(code)
    }
}
