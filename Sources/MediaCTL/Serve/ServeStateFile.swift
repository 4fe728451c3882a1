import Foundation
import MediaCore
import MediaCrypto

/// `<state>/serve.json`: how other `mediactl` commands reach the `mediactl serve` that owns a state
/// directory (it holds the audit log lock and the per-process keys, so `purge` must go through it).
///
/// JSON: `{"admin":"127.0.0.1:9091","adminToken":"<64 hex>","listen":"127.0.0.1:PORT","pid":1234}`, mode
/// 0600. Written by `serve` once it listens, removed when it stops. `admin` is `"off"` when the service runs
/// with `--admin-listen off`, and absent in files of earlier versions (whose admin endpoints were on `listen`).
/// ``description`` never shows the token.
public struct ServeStateFile: Codable, Hashable, Sendable, CustomStringConvertible {
    /// The file name inside the state directory: `serve.json`.
    public static let fileName = "serve.json"
    /// The largest serve.json read, bytes: 4,096.
    public static let maximumBytes = 4096

    /// The process id of the running `mediactl serve`.
    public var pid: Int32
    /// Where it listens, `host:port` (e.g. `127.0.0.1:8080`).
    public var listen: String
    /// Where the admin listener listens, `host:port` (e.g. `127.0.0.1:9091`), ``adminOff`` when there is
    /// none, `nil` in a file of an earlier version.
    public var admin: String?
    /// The ``admin`` value of a service without an admin listener: `off`.
    public static let adminOff = "off"
    /// The bearer token `POST /_mediactl/purge` and `POST /_mediactl/admin/reload` require.
    public var adminToken: String

    public init(pid: Int32, listen: String, admin: String? = nil, adminToken: String) {
        self.pid = pid
        self.listen = listen
        self.admin = admin
        self.adminToken = adminToken
    }

    /// A fresh admin token: 32 bytes from the CSPRNG as 64 lower-case hex characters.
    /// - Throws: ``MediaCrypto/CryptoError`` when the CSPRNG fails.
    public static func makeAdminToken() throws -> String {
        Hex.encode(try SecureRandom.bytes(count: 32))
    }

    /// `<stateDirectory>/serve.json`.
    public static func path(stateDirectory: String) -> String { stateDirectory + "/" + fileName }

    /// Reads the file of `stateDirectory`.
    /// - Returns: the file, or `nil` when there is none (no service runs).
    /// - Throws: ``CommandError`` (exit 2) `unreadable-file` (`cannot read serve.json '<path>': …`) or
    ///   `invalid-file` (`serve.json '<path>' is not a serve.json document ({"pid","listen","adminToken"})`).
    public static func read(stateDirectory: String) throws(CommandError) -> ServeStateFile? {
        let path = path(stateDirectory: stateDirectory)
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        guard let bytes = try FileAccess.readFile(path, limit: maximumBytes, what: "serve.json") else {
            throw invalid(path)
        }
        guard let file = try? JSONDecoder().decode(ServeStateFile.self, from: Data(bytes)) else { throw invalid(path) }
        return file
    }

    /// Writes the file (mode 0600) atomically: a temp file in the state directory, then `rename(2)`.
    /// - Throws: ``CommandError`` `unwritable-file` (exit 2).
    public func write(stateDirectory: String) throws(CommandError) {
        let path = Self.path(stateDirectory: stateDirectory)
        let temporary = path + ".tmp-\(pid)"
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let data = (try? encoder.encode(self)) ?? Data()
        try FileAccess.writeFile([UInt8](data) + [0x0A], to: temporary)
        guard rename(temporary, path) == 0 else {
            let reason = SystemErrorText.current
            unlink(temporary)
            throw CommandError(.unwritableFile, "cannot write '\(path)': \(reason)", exitCode: .unusableInput)
        }
    }

    /// Removes the file of `stateDirectory` if present (at `serve` shutdown).
    public static func remove(stateDirectory: String) {
        unlink(path(stateDirectory: stateDirectory))
    }

    public var description: String {
        "ServeStateFile(pid: \(pid), listen: \(listen), admin: \(admin ?? "none"), adminToken: <redacted>)"
    }

    private static func invalid(_ path: String) -> CommandError {
        CommandError(
            .invalidFile, "serve.json '\(path)' is not a serve.json document ({\"pid\",\"listen\",\"adminToken\"})",
            exitCode: .unusableInput)
    }
}
