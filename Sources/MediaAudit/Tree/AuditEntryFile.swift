import Glibc
import MediaCore
import MediaCrypto

/// `audit/tree-entries`: the entries of the audit log's Merkle tree (``AuditTree``), each record's `hash` as 32 bytes,
/// in `seq` order, appended by the log as it writes (``AuditTreeWriter``). They let the tree, every proof and the
/// C2SP tiles outlive `audit prune`: the records of removed segments are gone, their entries stay. A torn last entry
/// (fewer than 32 bytes) is not one.
enum AuditEntryFile {
    /// The file's name in the audit folder.
    static let name = "tree-entries"

    /// The entries in the audit folder `directory` (`[]` when the file is missing).
    /// - Throws: ``AuditError`` `io`.
    static func read(directory: String) throws -> [SHA256Digest] {
        entries(in: try AuditFiles.read(directory + "/" + name) ?? [])
    }

    /// The number of whole entries in the audit folder `directory` (0 when the file is missing).
    /// - Throws: ``AuditError`` `io`.
    static func count(directory: String) throws -> Int {
        var info = stat()
        let path = directory + "/" + name
        guard stat(path, &info) == 0 else {
            if errno == ENOENT { return 0 }
            throw AuditFiles.ioError("stat", path)
        }
        return Int(info.st_size) / 32
    }

    /// The entries `range` (indices) in the audit folder `directory`, or `nil` when the file does not hold them all.
    /// - Throws: ``AuditError`` `io`.
    static func read(directory: String, range: Range<Int>) throws -> [SHA256Digest]? {
        let path = directory + "/" + name
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            if errno == ENOENT { return nil }
            throw AuditFiles.ioError("open", path)
        }
        defer { close(fd) }
        var bytes = [UInt8](repeating: 0, count: range.count * 32)
        var done = 0
        while done < bytes.count {
            let count = bytes.withUnsafeMutableBytes { buffer in
                pread(fd, buffer.baseAddress! + done, buffer.count - done, off_t(range.lowerBound * 32 + done))
            }
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { throw AuditFiles.ioError("pread", path) }
            if count == 0 { return nil }
            done += count
        }
        return entries(in: bytes)
    }

    /// The whole entries in `bytes`.
    static func entries(in bytes: [UInt8]) -> [SHA256Digest] {
        stride(from: 0, to: bytes.count - bytes.count % 32, by: 32).map { SHA256Digest(bytes: Array(bytes[$0..<($0 + 32)])) }
    }

    /// The entry of the record whose `hash` is `hash`: its 32 bytes.
    static func entry(_ hash: AuditDigest) -> SHA256Digest {
        SHA256Digest(bytes: Hex.decode(hash.hex) ?? [])
    }
}
