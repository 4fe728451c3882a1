#if canImport(Glibc)
    import Glibc
#endif

import MediaCore

/// Where access-log lines go: a file opened for appending (created 0640 when missing), or standard
/// output for `--access-log -`. Not thread-safe: ``AccessLog`` calls it under its write lock.
final class AccessLogFile {
    /// The path, or `nil` for standard output.
    let path: String?
    private(set) var descriptor: Int32

    /// Opens `path` (`-`: standard output, never closed).
    /// - Throws: ``AccessLogError``: `cannot open access log 'PATH': <errno text>`.
    init(path: String) throws(AccessLogError) {
        if path == "-" {
            self.path = nil
            descriptor = 1
        } else {
            self.path = path
            descriptor = try Self.open(path)
        }
    }

    /// Opens `path` again and closes the previous descriptor (after `logrotate` renamed the file). On
    /// failure the previous descriptor stays in use.
    /// - Throws: ``AccessLogError`` as ``init(path:)``.
    func reopen() throws(AccessLogError) {
        guard let path else { return }
        let fresh = try Self.open(path)
        Glibc.close(descriptor)
        descriptor = fresh
    }

    /// Writes `bytes` in full (partial writes continued, `EINTR` retried).
    /// - Returns: `false` when `write(2)` failed (`ENOSPC`, `EPIPE`, …); the rest of `bytes` is lost.
    func write(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBufferPointer { buffer -> Bool in
            guard var base = buffer.baseAddress else { return true }
            var remaining = buffer.count
            while remaining > 0 {
                let written = Glibc.write(descriptor, base, remaining)
                if written < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                remaining -= written
                base += written
            }
            return true
        }
    }

    /// Closes the file (standard output stays open).
    func close() {
        guard path != nil, descriptor >= 0 else { return }
        Glibc.close(descriptor)
        descriptor = -1
    }

    private static func open(_ path: String) throws(AccessLogError) -> Int32 {
        let fd = Glibc.open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o640)
        guard fd >= 0 else {
            throw AccessLogError("cannot open access log '\(path)': \(SystemErrorText.current)")
        }
        return fd
    }
}
