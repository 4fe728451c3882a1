import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Whether a permission refusal can be provoked: as any user but root, or as root with `setpriv`.
private let canDropPrivileges = getuid() != 0 || FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv")

/// Every file and folder `mediactl` cannot open for want of permission is reported in one wording,
/// `<what>: … Permission denied (errno 13)` (MediaCore's SystemErrorText), through the built binary. Run as root
/// (CI), the binary runs as `nobody` through util-linux `setpriv`, since root may open anything; run as another
/// user, mode 000 refuses that user itself.
@Suite(.enabled(if: canDropPrivileges, "needs setpriv (util-linux) when run as root"), .serialized)
struct PermissionErrorTests {
    /// A world-readable folder with a copy of the binary and the default policies, and the launcher that runs it.
    final class World {
        let root: URL
        let launcher: [String]
        var path: String { root.path }

        init() throws {
            root = URL(fileURLWithPath: "/tmp").appendingPathComponent("mediactl-perm-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: root.appendingPathComponent("policies"), withIntermediateDirectories: true)
            try FileManager.default.copyItem(
                at: MediactlProcess.packageRoot.appendingPathComponent("Policies/default.json"),
                to: root.appendingPathComponent("policies/default.json"))
            let binary = root.appendingPathComponent("mediactl")
            try FileManager.default.copyItem(at: MediactlProcess.binary, to: binary)
            for (item, mode) in [("", 0o755), ("policies", 0o755), ("policies/default.json", 0o644), ("mediactl", 0o755)] {
                chmod(root.appendingPathComponent(item).path, mode_t(mode))
            }
            try FileManager.default.createDirectory(at: root.appendingPathComponent("state"), withIntermediateDirectories: true)
            chmod(root.appendingPathComponent("state").path, 0o777)
            try FileManager.default.createDirectory(at: root.appendingPathComponent("locked"), withIntermediateDirectories: true)
            chmod(root.appendingPathComponent("locked").path, 0o000)
            launcher = getuid() == 0
                ? ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", binary.path]
                : [binary.path]
        }

        func run(_ arguments: [String]) throws -> MediactlProcess.CommandResult {
            try MediactlProcess.run(arguments, launcher: launcher)
        }

        func serve(_ extra: [String], state: String? = nil) throws -> MediactlProcess.CommandResult {
            try run(["serve", "--policies", "\(path)/policies", "--state-dir", state ?? "\(path)/state",
                     "--listen", "127.0.0.1:0", "--admin-listen", "off"] + extra)
        }

        func write(_ text: String, to name: String, mode: mode_t) throws -> String {
            let file = root.appendingPathComponent(name).path
            try Data(text.utf8).write(to: URL(fileURLWithPath: file))
            chmod(file, mode)
            return file
        }

        deinit {
            chmod(root.appendingPathComponent("locked").path, 0o755)
            try? FileManager.default.removeItem(at: root)
        }
    }

    @Test func aPolicyFolderOrFileThatCannotBeRead() throws {
        let world = try World()
        chmod("\(world.path)/policies", 0o000)
        let folder = try world.serve([])
        #expect(folder.exitCode == 2)
        #expect(folder.stderr == "mediactl: \(world.path)/policies: cannot read the directory: Permission denied (errno 13); allowed: a readable directory of *.json policy files\n")
        // Under a folder that may not be searched: not "does not exist", but why it cannot be looked at.
        let hidden = try world.run(["policy", "check", "--policies", "\(world.path)/locked/policies"])
        #expect(hidden.exitCode == 2)
        #expect(hidden.stderr.hasPrefix("mediactl: \(world.path)/locked/policies: cannot be looked at: Permission denied (errno 13); allowed: a readable directory of *.json policy files\n"))
        chmod("\(world.path)/policies", 0o755)
        chmod("\(world.path)/policies/default.json", 0o000)
        let file = try world.run(["policy", "check", "--policies", "\(world.path)/policies"])
        #expect(file.exitCode == 2)
        #expect(file.stderr == """
            mediactl: \(world.path)/policies/default.json: cannot read the file: Permission denied (errno 13); allowed: a readable JSON file
            mediactl: policy check failed: 1 problem in \(world.path)/policies

            """)
    }

    @Test func aStateDirectoryThatCannotBeCreatedOrScanned() throws {
        let world = try World()
        let created = try world.serve([], state: "\(world.path)/locked/state")
        #expect(created.exitCode == 2)
        #expect(created.stderr == "mediactl: cannot open state directory '\(world.path)/locked/state': cannot create \(world.path)/locked/state: Permission denied (errno 13)\n")
        let scanned = try world.run(["audit", "--state-dir", "\(world.path)/locked", "--policies", "\(world.path)/policies"])
        #expect(scanned.exitCode == 2)
        #expect(scanned.stderr == "mediactl: cannot scan state directory '\(world.path)/locked': open \(world.path)/locked: Permission denied (errno 13)\n")
    }

    @Test func anAccessLogThatCannotBeOpenedFailsBeforeAnyAuditRecord() throws {
        let world = try World()
        let result = try world.serve(["--access-log", "\(world.path)/locked/access.log"])
        #expect(result.exitCode == 2)
        #expect(result.stderr == "mediactl: cannot open access log '\(world.path)/locked/access.log': Permission denied (errno 13)\n")
        #expect(!FileManager.default.fileExists(atPath: "\(world.path)/state/audit"))
    }

    @Test func secretAndListFilesThatCannotBeOpened() throws {
        let world = try World()
        let token = try world.write(String(repeating: "a", count: 43), to: "admin.token", mode: 0o000)
        let serve = try world.serve(["--admin-token-file", token])
        #expect(serve.exitCode == 2)
        #expect(serve.stderr == "mediactl: --admin-token-file \(token): cannot be opened: Permission denied (errno 13); allowed: a regular file only its owner can read or write (chmod 600)\n")
        let keys = try world.write("k1 " + String(repeating: "ab", count: 32) + "\n", to: "keys", mode: 0o000)
        let sign = try world.run(["sign", "--keys", keys, "--kid", "k1", "--subject", "u1", "--expires-in", "60", "/private/r.jpg"])
        #expect(sign.exitCode == 2)
        #expect(sign.stderr == "mediactl: \(keys): cannot be opened: Permission denied (errno 13); allowed: a regular file only its owner can read or write (chmod 600)\n")
        let replicas = try world.write("http://127.0.0.1:1\n", to: "replicas", mode: 0o000)
        let readable = try world.write(String(repeating: "a", count: 43), to: "readable.token", mode: 0o600)
        if getuid() == 0 { chown(readable, 65534, 65534) }
        let purge = try world.run(["purge", "--all", "--replicas", replicas, "--admin-token-file", readable])
        #expect(purge.exitCode == 2)
        #expect(purge.stderr == "mediactl: cannot read replicas file '\(replicas)': Permission denied (errno 13)\n")
    }
}
