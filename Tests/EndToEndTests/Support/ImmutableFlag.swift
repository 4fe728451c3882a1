import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The immutable attribute (`chattr +i`, ext2/3/4, XFS, Btrfs): a file no process may write, root included, even
/// through a descriptor opened before (ext4 checks it on every write). The end-to-end tests run as root, for whom
/// a mode of 0400 changes nothing: this is how they make the audit log of a running `mediactl serve` unwritable,
/// and writable again, without a fault-injection seam in the binary.
enum ImmutableFlag {
    static let chattr = "/usr/bin/chattr"

    /// Whether `chattr +i` works on the temporary folder's file system and stops root from appending: probed once
    /// on a file of its own (tests that need it are skipped otherwise, saying why).
    static let isSupported: Bool = {
        guard FileManager.default.isExecutableFile(atPath: chattr) else { return false }
        let probe = FileManager.default.temporaryDirectory.appendingPathComponent("immutable-probe-\(UUID().uuidString)")
        guard FileManager.default.createFile(atPath: probe.path, contents: Data("x\n".utf8)) else { return false }
        defer {
            _ = try? run("-i", probe)
            try? FileManager.default.removeItem(at: probe)
        }
        guard (try? run("+i", probe)) == true else { return false }
        let fd = open(probe.path, O_WRONLY | O_APPEND)
        if fd >= 0 {
            Glibc.close(fd)
            return false
        }
        return errno == EPERM
    }()

    /// `chattr +i path`.
    static func set(_ path: URL) throws {
        guard try run("+i", path) else { throw MediactlProcess.Failure("chattr +i \(path.path) failed") }
    }

    /// `chattr -i path` (nothing when the file is gone).
    static func clear(_ path: URL) throws {
        guard FileManager.default.fileExists(atPath: path.path) else { return }
        guard try run("-i", path) else { throw MediactlProcess.Failure("chattr -i \(path.path) failed") }
    }

    private static func run(_ flag: String, _ path: URL) throws -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: chattr)
        process.arguments = [flag, path.path]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus == 0
    }
}
