import Foundation
import Testing

extension ComplianceTests {
    /// C19: purge by U1's credential removes U1's partition only; U2 and the shared tiers stay.
    @Test func c19PurgeByCredential() throws {
        let world = try ServeEnvironment()
        defer { world.tearDown() }
        try world.start()
        for (path, token) in [("receipts/r-7731.png", Self.u1), ("receipts/r-7732.jpg", Self.u1),
                              ("receipts/r-7731.png", Self.u2)] {
            #expect(try world.get("/" + path, token: token).cacheStatus.stored)
        }
        #expect(try world.get("/catalog/coffee-237a7131.jpg").cacheStatus.stored)
        let credentialFile = world.root.appendingPathComponent("u1.credential")
        try "Bearer \(Self.u1)\n".write(to: credentialFile, atomically: true, encoding: .utf8)
        let purge = try world.run(["purge", "--credential-file", credentialFile.path])
        #expect(purge.exitCode == 0, "\(purge.stderr)")
        #expect(purge.stdout == "purged 2 entries\n")
        try? FileManager.default.removeItem(at: credentialFile)

        #expect(!(try world.get("/receipts/r-7731.png", token: Self.u1).cacheStatus.hit))
        #expect(try world.get("/receipts/r-7731.png", token: Self.u2).cacheStatus.hit)
        #expect(try world.get("/catalog/coffee-237a7131.jpg").cacheStatus.hit)

        let purges = world.auditRecords.filter { $0.event == "purge" }
        #expect(purges.count == 3)
        #expect(purges.last?.key == nil)
        #expect(purges.last?.count == 2)
        #expect(Set(purges.map(\.partition)).count == 1)
        #expect(purges.allSatisfy { $0.reason == "purge-credential" })
        #expect(world.stop() == 0)
        #expect(StateScan.filesContaining(Self.forbiddenSlices, under: world.stateDirectory) == [])
        #expect(try world.audit().result.exitCode == 0)
    }
}
