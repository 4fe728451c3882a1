import MediaCore
import Foundation
import Glibc

/// File layout of the audit folder and the POSIX calls the writer needs.
enum AuditFiles {
    /// The active file name.
    static let activeName = "audit.jsonl"

    /// The lock a prune holds exclusively and a reader shared (created by the writer and by a prune).
    static let pruneLockName = "prune.lock"

    /// Opens `<directory>/prune.lock` and takes its `flock(2)`, waiting for the holders of the other kind;
    /// returns the descriptor that holds it until closed.
    /// - A prune (`exclusive`) creates the file (0600) if needed; failing to open or lock it throws.
    /// - A reader (shared) never creates it (an audit modifies nothing; the writer makes it when it opens
    ///   the log) and reads unordered (`nil`) when it is missing or cannot be locked.
    /// - Throws: ``AuditError/Code/io``, for `exclusive` only.
    static func lockPrune(_ directory: String, exclusive: Bool) throws -> Int32? {
        let path = directory + "/" + pruneLockName
        let fd = exclusive ? open(path, O_RDONLY | O_CREAT | O_CLOEXEC, 0o600) : open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            if exclusive { throw ioError("open", path) }
            return nil
        }
        while flock(fd, exclusive ? LOCK_EX : LOCK_SH) != 0 {
            let code = errno
            if code == EINTR { continue }
            Glibc.close(fd)
            if exclusive { throw ioError("flock", path, code) }
            return nil
        }
        return fd
    }

    /// `audit-NNNNNN.jsonl` for a rotated segment index (1-based, six digits, more if ever needed).
    static func segmentName(_ index: Int) -> String {
        let digits = String(index)
        return "audit-" + String(repeating: "0", count: max(0, 6 - digits.count)) + digits + ".jsonl"
    }

    /// The index of a rotated segment name, or `nil` for any other name.
    static func segmentIndex(_ name: String) -> Int? {
        guard name.hasPrefix("audit-"), name.hasSuffix(".jsonl") else { return nil }
        let digits = name.dropFirst(6).dropLast(6)
        guard digits.count >= 6, digits.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
        return Int(digits)
    }

    /// Rotated segments in order, as (index, path). A missing folder gives `[]`.
    static func rotatedSegments(in directory: String) -> [(index: Int, path: String)] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return names.compactMap { name in segmentIndex(name).map { ($0, directory + "/" + name) } }
            .sorted { $0.index < $1.index }
    }

    /// Every file of the log in chain order: rotated segments, then the active file if it exists.
    static func allFiles(in directory: String) -> [String] {
        var files = rotatedSegments(in: directory).map(\.path)
        let active = directory + "/" + activeName
        if FileManager.default.fileExists(atPath: active) { files.append(active) }
        return files
    }

    static func ioError(_ call: String, _ path: String, _ code: Int32 = errno) -> AuditError {
        AuditError(.io, "\(call) \(path): \(SystemErrorText.describe(code))", errno: code,
                   operation: "\(call) \(path)")
    }

    /// Creates `path` (and a missing parent) with mode 0700, and enforces 0700 on it.
    static func makeDirectory(_ path: String) throws {
        var info = stat()
        if stat(path, &info) != 0 {
            let parent = (path as NSString).deletingLastPathComponent
            if !parent.isEmpty, stat(parent, &info) != 0 { try makeDirectory(parent) }
            if mkdir(path, 0o700) != 0 && errno != EEXIST { throw ioError("mkdir", path) }
        }
        if chmod(path, 0o700) != 0 { throw ioError("chmod", path) }
    }

    /// Opens `path` for appending (O_APPEND, created 0600, mode enforced to 0600).
    static func openAppend(_ path: String) throws -> Int32 {
        let fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw ioError("open", path) }
        guard fchmod(fd, 0o600) == 0 else {
            let code = errno
            Glibc.close(fd)
            throw ioError("fchmod", path, code)
        }
        return fd
    }

    /// Opens `directory` and takes a non-blocking exclusive `flock(2)` on it; returns the descriptor that
    /// holds the lock until closed.
    /// - Throws: ``AuditError/Code/locked`` when another descriptor holds it, ``AuditError/Code/io`` otherwise.
    static func lockDirectory(_ directory: String) throws -> Int32 {
        let fd = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw ioError("open", directory) }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            let code = errno
            Glibc.close(fd)
            if code == EWOULDBLOCK {
                throw AuditError(.locked, "\(directory) is already open for writing by another AuditLog")
            }
            throw ioError("flock", directory, code)
        }
        return fd
    }

    /// Renames `source` to `target`, refusing to replace an existing `target`.
    static func renameNoReplace(_ source: String, _ target: String) throws {
        guard access(target, F_OK) != 0 else { throw ioError("rename", target, EEXIST) }
        guard rename(source, target) == 0 else { throw ioError("rename", source) }
    }

    /// Writes all of `bytes`, retrying short writes and EINTR.
    static func writeAll(_ fd: Int32, _ bytes: [UInt8], path: String) throws {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + offset, bytes.count - offset) }
            if written < 0 {
                if errno == EINTR { continue }
                throw ioError("write", path)
            }
            offset += written
        }
    }

    static func sync(_ fd: Int32, path: String) throws {
        guard fsync(fd) == 0 else { throw ioError("fsync", path) }
    }

    /// fsyncs a directory so that a create or rename in it is durable.
    static func syncDirectory(_ path: String) throws {
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw ioError("open", path) }
        defer { Glibc.close(fd) }
        try sync(fd, path: path)
    }

    static func size(_ fd: Int32, path: String) throws -> Int {
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw ioError("fstat", path) }
        return Int(info.st_size)
    }

    /// Truncates the file at `path` to `length` bytes and fsyncs it.
    static func truncate(_ path: String, to length: Int) throws {
        let fd = open(path, O_WRONLY | O_CLOEXEC)
        guard fd >= 0 else { throw ioError("open", path) }
        defer { Glibc.close(fd) }
        guard ftruncate(fd, off_t(length)) == 0 else { throw ioError("ftruncate", path) }
        try sync(fd, path: path)
    }

    /// Writes `bytes` to `path` through `<path>.tmp`: written, fsynced, renamed into place (0600). The caller fsyncs
    /// the folder.
    static func writeAtomically(_ bytes: [UInt8], to path: String) throws {
        let temporary = path + ".tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw AuditFiles.ioError("open", temporary) }
        do {
            try AuditFiles.writeAll(fd, bytes, path: temporary)
            try AuditFiles.sync(fd, path: temporary)
        } catch {
            Glibc.close(fd)
            unlink(temporary)
            throw error
        }
        Glibc.close(fd)
        guard rename(temporary, path) == 0 else {
            let code = errno
            unlink(temporary)
            throw AuditFiles.ioError("rename", temporary, code)
        }
    }

    /// The whole file, or `nil` when it does not exist.
    static func read(_ path: String) throws -> [UInt8]? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        guard let data = FileManager.default.contents(atPath: path) else { throw ioError("read", path, EIO) }
        return [UInt8](data)
    }

    /// Milliseconds since the Unix epoch from CLOCK_REALTIME.
    static func nowMilliseconds() -> Int64 {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return Int64(spec.tv_sec) * 1000 + Int64(spec.tv_nsec) / 1_000_000
    }
}
