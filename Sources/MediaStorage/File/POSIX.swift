import MediaCore
import Glibc

/// Thin wrappers over the POSIX calls the file stores use. Every open uses `O_NOFOLLOW` and
/// `O_CLOEXEC`; folders are opened relative to their parent's descriptor, so no symlink is ever followed.
enum POSIX {
    /// The `io` error for a failed call, naming the call, the path and `errno`.
    static func failure(_ call: String, _ path: String, _ code: Int32 = errno) -> StorageError {
        StorageError(.io, "\(call) \(path): \(SystemErrorText.describe(code))")
    }

    /// Opens (and with `create`, makes with mode 0700) the folder `name` inside `parent`.
    /// - Throws: `unsafe-path` when `name` is a symlink or not a folder; `io` otherwise.
    static func openDirectory(_ name: String, in parent: Int32, create: Bool, path: String) throws -> Int32 {
        var fd = openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        if fd < 0, errno == ENOENT, create {
            if mkdirat(parent, name, 0o700) != 0, errno != EEXIST { throw failure("mkdir", path) }
            fd = openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        }
        guard fd >= 0 else {
            let code = errno
            if code == ELOOP || code == ENOTDIR { throw StorageError(.unsafePath, "\(path) is a symlink or not a folder") }
            throw failure("open", path, code)
        }
        return fd
    }

    /// Writes all of `buffer` at the descriptor's offset.
    static func writeAll(_ fd: Int32, _ buffer: UnsafeRawBufferPointer, path: String) throws {
        var offset = 0
        while offset < buffer.count {
            let written = write(fd, buffer.baseAddress! + offset, buffer.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                throw failure("write", path)
            }
            offset += written
        }
    }

    static func writeAll(_ fd: Int32, _ bytes: [UInt8], path: String) throws {
        try bytes.withUnsafeBytes { try writeAll(fd, $0, path: path) }
    }

    /// Reads exactly `buffer.count` bytes at `offset`; `false` on a short read or an error.
    static func readExactly(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer, at offset: Int) -> Bool {
        var done = 0
        while done < buffer.count {
            let count = pread(fd, buffer.baseAddress! + done, buffer.count - done, off_t(offset + done))
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return false }
            done += count
        }
        return true
    }

    /// `count` bytes at `offset`, or `nil` on a short read.
    static func read(_ fd: Int32, count: Int, at offset: Int) -> [UInt8]? {
        var ok = false
        let bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            ok = readExactly(fd, into: UnsafeMutableRawBufferPointer(buffer), at: offset)
            initialized = ok ? count : 0
        }
        return ok ? bytes : nil
    }

    /// `fstat`: size in bytes, whether it is a regular file, and the modification time in nanoseconds.
    static func status(_ fd: Int32) -> (size: Int, isRegular: Bool, modified: Int64)? {
        var info = stat()
        guard fstat(fd, &info) == 0 else { return nil }
        let modified = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
        return (Int(info.st_size), (info.st_mode & S_IFMT) == S_IFREG, modified)
    }

    /// Calls `body` with the descriptor of the folder `name` inside `parent` and the names in it
    /// (without `.` and `..`), each with whether it is a folder (`nil` when the file system does not say).
    /// Returns `nil` when `name` cannot be opened as a folder without following a symlink.
    static func withListing<R>(_ name: String, in parent: Int32,
                               _ body: (Int32, [(name: String, isDirectory: Bool?)]) -> R) -> R? {
        let fd = openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        guard let stream = fdopendir(fd) else {
            close(fd)
            return nil
        }
        defer { closedir(stream) }
        var names: [(name: String, isDirectory: Bool?)] = []
        while let entry = readdir(stream) {
            let type = entry.pointee.d_type
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(cString: raw.baseAddress!.assumingMemoryBound(to: CChar.self))
            }
            if name == "." || name == ".." { continue }
            names.append((name, type == UInt8(DT_UNKNOWN) ? nil : type == UInt8(DT_DIR)))
        }
        return body(dirfd(stream), names)
    }

    /// Overwrites the regular file `name` in `parent` with zeros, syncs it, and unlinks it.
    /// Symlinks and other non-regular files are unlinked without being followed.
    /// - Returns: the file's size in bytes before shredding (0 for a non-regular file).
    @discardableResult
    static func shred(_ name: String, in parent: Int32) -> Int {
        var size = 0
        let fd = openat(parent, name, O_WRONLY | O_NOFOLLOW | O_CLOEXEC)
        if fd >= 0 {
            if let info = status(fd), info.isRegular {
                size = info.size
                let zeros = [UInt8](repeating: 0, count: 65_536)
                var offset = 0
                zeros.withUnsafeBytes { chunk in
                    while offset < size {
                        let count = pwrite(fd, chunk.baseAddress!, min(chunk.count, size - offset), off_t(offset))
                        if count < 0, errno == EINTR { continue }
                        guard count > 0 else { break }
                        offset += count
                    }
                }
                _ = fsync(fd)
            }
            close(fd)
        }
        unlinkat(parent, name, 0)
        return size
    }
}
