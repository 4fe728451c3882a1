import Foundation
import MediaCrypto

#if canImport(Glibc)
    import Glibc
#endif

/// `<state>/serve.json`, written by a running `mediactl serve` (mode 0600) and removed when it
/// stops: `{"adminToken":"<64 hex>","listen":"HOST:PORT","pid":N}`. `mediactl purge` reads it to
/// reach the running server's admin endpoint with the token.
public struct ServeStateFile: Sendable, Hashable, Codable {
    /// The file name inside the state directory: `serve.json`.
    public static let fileName = "serve.json"

    /// The serving process's id.
    public var pid: Int32
    /// The bound address, `HOST:PORT` (IPv6 host in brackets), with the real port when 0 was asked.
    public var listen: String
    /// 32 random bytes as 64 lower-case hex characters; the bearer token of the admin endpoint.
    public var adminToken: String

    public init(pid: Int32, listen: String, adminToken: String) {
        self.pid = pid
        self.listen = listen
        self.adminToken = adminToken
    }

    /// A fresh admin token: 32 bytes from the system CSPRNG, hex.
    /// - Throws: `MediaCrypto` errors when the CSPRNG fails.
    public static func makeAdminToken() throws -> String {
        Hex.encode(try SecureRandom.bytes(count: 32))
    }

    /// The path of the file in `stateDirectory`.
    public static func path(in stateDirectory: String) -> String {
        stateDirectory.hasSuffix("/") ? stateDirectory + fileName : stateDirectory + "/" + fileName
    }

    /// The JSON text: keys sorted, no spaces, one trailing newline.
    public var json: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let data = (try? encoder.encode(self)) ?? Data()
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    /// Replaces any earlier file and writes this one with mode 0600.
    /// - Throws: ``CommandError`` `unwritable-file` (exit 2): `cannot write 'P': <errno text>`.
    public func write(in stateDirectory: String) throws(CommandError) {
        let path = Self.path(in: stateDirectory)
        unlink(path)  // a stale file of a crashed process may have another mode
        try FileAccess.writeFile(Array(json.utf8), to: path)
    }

    /// Reads the file of `stateDirectory`, or `nil` when it is absent or unparsable.
    public static func read(in stateDirectory: String) -> ServeStateFile? {
        guard let data = FileManager.default.contents(atPath: path(in: stateDirectory)) else { return nil }
        return try? JSONDecoder().decode(ServeStateFile.self, from: data)
    }

    /// Removes the file of `stateDirectory`; a missing file is fine.
    public static func remove(in stateDirectory: String) {
        unlink(path(in: stateDirectory))
    }
}
