import Foundation
import MediaAudit
import MediaPolicy
import Testing

@testable import MediaCTL

@Suite struct DemoPolicyTests {
    /// The repository's `Policies/` folder, next to `Tests/`.
    static let repositoryPolicies = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Policies").path

    @Test func builtInPolicyIsTheDefaultPolicy() throws {
        let builtIn = try PolicyLoader().load(sources: [.init(name: DemoPolicy.sourceName, text: DemoPolicy.text)])
        let shipped = try PolicyLoader().load(directory: Self.repositoryPolicies)
        #expect(builtIn.tiers == shipped.tiers)
        func strip(_ routes: [MediaPolicy.Route]) -> [MediaPolicy.Route] {
            routes.map { route in
                var copy = route
                copy.file = ""
                return copy
            }
        }
        #expect(strip(builtIn.routes) == strip(shipped.routes))
    }

    @Test func originsPointAtTheEmbeddedOrigin() throws {
        let policies = try DemoPolicy.policies(originBase: "http://127.0.0.1:4321")
        #expect(policies.routes.map(\.origin) == [
            "http://127.0.0.1:4321/catalog/", "http://127.0.0.1:4321/avatars/", "http://127.0.0.1:4321/receipts/",
            "http://127.0.0.1:4321/one-time/",
        ])
        #expect(policies.routes.map(\.name) == DemoPolicy.routes)
    }

    @Test func serveStateFileRoundTripsWithMode0600() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let token = try ServeStateFile.makeAdminToken()
        #expect(token.count == 64)
        #expect(token != (try ServeStateFile.makeAdminToken()))
        let file = ServeStateFile(pid: 42, listen: "[::1]:8080", adminToken: "ab")
        #expect(file.json == "{\"adminToken\":\"ab\",\"listen\":\"[::1]:8080\",\"pid\":42}\n")
        _ = try directory.file("serve.json", contents: "stale")
        try file.write(in: directory.path + "/")
        #expect(ServeStateFile.read(in: directory.path) == file)
        let attributes = try FileManager.default.attributesOfItem(atPath: directory.path + "/serve.json")
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        ServeStateFile.remove(in: directory.path)
        #expect(ServeStateFile.read(in: directory.path) == nil)
        ServeStateFile.remove(in: directory.path)
        #expect(throws: CommandError.self) { try file.write(in: directory.path + "/missing") }
    }

    @Test func inventoryListsDiskAndSealedFiles() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let manager = FileManager.default
        let diskKey = String(repeating: "a", count: 64)
        let sealedKey = String(repeating: "b", count: 64)
        try manager.createDirectory(atPath: directory.path + "/disk/aa/aa", withIntermediateDirectories: true)
        try manager.createDirectory(atPath: directory.path + "/sealed/bb/bb", withIntermediateDirectories: true)
        try Data("MCSD12345".utf8).write(to: URL(fileURLWithPath: directory.path + "/disk/aa/aa/" + diskKey))
        try Data("MCSE1".utf8).write(to: URL(fileURLWithPath: directory.path + "/sealed/bb/bb/" + sealedKey))
        try Data("plain".utf8).write(to: URL(fileURLWithPath: directory.path + "/sealed/stray"))
        #expect(StateInventory.scan(stateDirectory: directory.path) == [
            PersistedObject(folder: .disk, key: diskKey, bytes: 9, tier: nil, isSealed: false),
            PersistedObject(folder: .sealed, key: sealedKey, bytes: 5, tier: nil, isSealed: true),
            PersistedObject(folder: .sealed, key: "stray", bytes: 5, tier: nil, isSealed: false),
        ])
        #expect(StateInventory.scan(stateDirectory: directory.path + "/none") == [])
    }
}
