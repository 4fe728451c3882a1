import Foundation
import Testing

extension ComplianceTests {
    /// Issue 42: `purge --subject user-a --receipt R --replicas FLEET` on three replicas serving signed URLs
    /// (docs/examples/signed-urls/policy.json, subject partitions, `encrypted-disk`) removes user-a's receipt and its
    /// derived image from each, leaves user-b's, and writes a receipt that names neither subject nor path, which
    /// `audit verify-receipt R --state-dir D` accepts on each replica.
    @Test func aSubjectsFleetReceiptVerifiesOnEachReplica() throws {
        let worlds = try (0..<3).map { _ in try SignedURLBrowserWorld() }
        defer { for world in worlds { world.tearDown() } }
        for world in worlds {
            for subject in ["user-a", "user-b"] {
                for query in [nil, "w=144"] as [String?] {
                    let target = try world.signed("/receipts/latest", query: query, subject: subject)
                    let response = try world.environment.get(target)
                    #expect(response.status == 200, "\(subject) \(query ?? "")")
                    #expect(response.cacheStatus.stored, "\(subject) \(query ?? "")")
                }
            }
        }
        let root = worlds[0].environment.root
        let fleet = root.appendingPathComponent("fleet.txt").path
        try worlds.map { "http://127.0.0.1:\($0.environment.adminPort) \($0.environment.stateDirectory.path)\n" }.joined()
            .write(toFile: fleet, atomically: true, encoding: .utf8)
        let receipt = root.appendingPathComponent("user-a.receipt.json").path
        let purge = try MediactlProcess.run(["purge", "--subject", "user-a", "--receipt", receipt, "--replicas", fleet])
        #expect(purge.exitCode == 0, "\(purge.stderr)")
        #expect(purge.stdout.hasSuffix("total: purged 6 entries on 3 of 3 replicas\n"), "\(purge.stdout)")
        let text = try String(contentsOfFile: receipt, encoding: .utf8)
        for secret in ["user-a", "user-b", "receipts/", "latest", "r-7731"] { #expect(!text.contains(secret), "\(secret) in the receipt") }
        let document = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        let entries = try #require(document["replicas"] as? [[String: Any]])
        #expect(entries.map { $0["status"] as? String } == ["purged", "purged", "purged"])
        for world in worlds {
            let verified = try world.environment.run(["audit", "verify-receipt", receipt])
            #expect(verified.exitCode == 0, "\(verified.stderr)")
            #expect(verified.stdout.hasPrefix("ok: purge-subject of partition "), "\(verified.stdout)")
            #expect(verified.stdout.contains("; 2 objects removed, none of the partition stored before it remains; 0 stored since by new requests\n"),
                    "\(verified.stdout)")
            // user-b's stay; user-a's come from the origin again.
            let other = try world.environment.get(try world.signed("/receipts/latest", query: nil, subject: "user-b"))
            #expect(other.cacheStatus.hit)
            let again = try world.environment.get(try world.signed("/receipts/latest", query: nil, subject: "user-a"))
            #expect(again.cacheStatus.stored)
        }
        for world in worlds { #expect(world.environment.stop() == 0) }
    }
}
