import Foundation
import MediaAudit
import MediaCore
import Testing

@testable import MediaCTL
@testable import MediaService

/// `mediactl audit` after a purge whose process died between destroying the partition's data key and removing its
/// files: the sealed file left is a `shredded-remnant` note (nobody can open it), not a violation.
@Suite struct AuditShreddedRemnantTests {
    @Test func aFileWhoseKeyWasDestroyedIsANoteNotAViolation() async throws {
        let harness = try ServiceStateHarness()
        defer { Task { await harness.close() } }
        try await harness.populate()
        let store = try #require(try harness.records().last { $0.entry.event == .store && $0.entry.storage == .encryptedDisk })
        let partition = try #require(store.entry.partition)
        let item = try #require(try harness.objects(in: .sealed).first)
        #expect(item.sealedKeyID == store.entry.keyId?.rawValue)
        // The purge's first step, then the "crash": the key is destroyed, the file stays.
        let stage = harness.service.purgeStage
        try stage.shredKeys(partition: partition.hex, in: stage.routes.snapshot.runtimes)
        let shred = try #require(try harness.records().last)
        #expect(shred.entry.reason == .partitionKeyDestroyed)
        #expect(FileManager.default.fileExists(atPath: harness.stateDirectory + "/" + item.path))

        let result = await harness.audit()
        #expect(result.status == 0)
        #expect(result.stdout.hasSuffix("""

            inventory notes: 1
              shredded-remnant \(item.path): its data key \(item.sealedKeyID!) was destroyed at seq \(shred.seq) (a purge of its partition); nobody can open it, and the next start removes it

            """))
        let json = await harness.audit(["--json"])
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let remnants = try #require(document["shreddedRemnants"] as? [[String: Any]])
        #expect(remnants.count == 1)
        #expect(remnants.first?["path"] as? String == item.path)
        #expect(remnants.first?["seq"] as? Int == shred.seq)
    }
}
