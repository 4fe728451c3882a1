import Foundation
import Testing

extension ComplianceTests {
    /// Issue 42: `purge --credential-file F --receipt R --replicas FLEET` on three running replicas writes one receipt
    /// entry per replica, and `audit verify-receipt R --state-dir D` accepts it on each of them.
    @Test func aFleetReceiptVerifiesOnEachReplica() throws {
        let worlds = try (0..<3).map { _ in try ServeEnvironment() }
        defer { for world in worlds { world.tearDown() } }
        for world in worlds {
            try world.start()
            #expect(try world.get("/receipts/r-7731.png", token: Self.u1).cacheStatus.stored)
        }
        let root = worlds[0].root
        let credentialFile = root.appendingPathComponent("u1.credential")
        try "Bearer \(Self.u1)\n".write(to: credentialFile, atomically: true, encoding: .utf8)
        let fleet = root.appendingPathComponent("fleet.txt").path
        try worlds.map { "http://127.0.0.1:\($0.adminPort) \($0.stateDirectory.path)\n" }.joined()
            .write(toFile: fleet, atomically: true, encoding: .utf8)
        let receipt = root.appendingPathComponent("fleet.receipt.json").path
        let purge = try MediactlProcess.run(["purge", "--credential-file", credentialFile.path, "--receipt", receipt, "--replicas", fleet])
        #expect(purge.exitCode == 0, "\(purge.stderr)")
        #expect(purge.stdout.hasSuffix("total: purged 3 entries on 3 of 3 replicas\n"))
        let document = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: receipt))) as? [String: Any])
        let entries = try #require(document["replicas"] as? [[String: Any]])
        #expect(entries.map { $0["status"] as? String } == ["purged", "purged", "purged"])
        #expect(entries.map { $0["replica"] as? String } == worlds.map { "http://127.0.0.1:\($0.adminPort)" })
        for world in worlds {
            let verified = try world.run(["audit", "verify-receipt", receipt])
            #expect(verified.exitCode == 0, "\(verified.stderr)")
            #expect(verified.stdout.contains("; 1 object removed, none of the partition stored before it remains;"))
        }
        for world in worlds { #expect(world.stop() == 0) }
    }
}
