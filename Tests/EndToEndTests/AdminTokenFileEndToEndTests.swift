import Foundation
import MediaTestSupport
import MediaServer
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `serve --admin-token-file` and `purge --replicas … --admin-token-file` through the built binary and a real nginx
/// origin: the deployed token is the one the admin listener accepts, and a fleet is purged without its serve.json.
@Suite(.enabled(if: NginxOrigin.isAvailable, "nginx is installed by scripts/test"), .serialized)
struct AdminTokenFileEndToEndTests {
    static let token = "0f1e2d3c4b5a69788796a5b4c3d2e1f00f1e2d3c4b5a69788796a5b4c3d2e1f0"

    @Test func aFleetSharesTheDeployedToken() throws {
        let world = try ServeEnvironment()
        defer { world.tearDown() }
        let tokenFile = world.root.appendingPathComponent("admin.token").path
        try Data((Self.token + "\n").utf8).write(to: URL(fileURLWithPath: tokenFile))
        chmod(tokenFile, 0o600)
        try world.start(extraArguments: ["--admin-token-file", tokenFile])
        #expect(try world.get("/catalog/horse-d29d871c.jpg").status == 200)
        let serveJSON = try JSONSerialization.jsonObject(
            with: Data(contentsOf: world.stateDirectory.appendingPathComponent("serve.json"))) as? [String: Any]
        #expect(serveJSON?["adminToken"] as? String == Self.token)
        let fleet = world.root.appendingPathComponent("fleet.txt").path
        try Data("http://127.0.0.1:\(world.adminPort)\n".utf8).write(to: URL(fileURLWithPath: fleet))
        let purge = try MediactlProcess.run(["purge", "--all", "--replicas", fleet, "--admin-token-file", tokenFile])
        #expect(purge.exitCode == 0, "\(purge.stderr)")
        #expect(purge.stdout == "http://127.0.0.1:\(world.adminPort): purged 1 entry\ntotal: purged 1 entry on 1 of 1 replicas\n")
        #expect(world.stop() == 0)
    }

    @Test func aTokenFileOthersCanReadIsRefusedAtStart() throws {
        let world = try ServeEnvironment()
        defer { world.tearDown() }
        let tokenFile = world.root.appendingPathComponent("admin.token").path
        try Data(Self.token.utf8).write(to: URL(fileURLWithPath: tokenFile))
        chmod(tokenFile, 0o644)
        let result = try MediactlProcess.run([
            "serve", "--policies", world.policiesDirectory.path, "--state-dir", world.stateDirectory.path,
            "--listen", "127.0.0.1:0", "--admin-listen", "127.0.0.1:0", "--admin-token-file", tokenFile,
        ])
        #expect(result.exitCode == 2)
        #expect(result.stdout == "")
        #expect(result.stderr == "mediactl: --admin-token-file \(tokenFile): has mode 0644: readable or writable by group or others; allowed: a regular file only its owner can read or write (chmod 600)\n")
    }
}
