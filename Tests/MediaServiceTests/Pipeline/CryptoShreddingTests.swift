import Foundation
import MediaAudit
import MediaCore
import MediaTestSupport
@testable import MediaService
import Testing

/// Crypto-shredding on purge: a partition's sealed objects are sealed under its own data key, named (`keyId`) in
/// their `store` records and file headers; a purge by credential records the key's destruction (`shred`
/// `partition-key-destroyed`), destroys it, then removes the files. Other partitions keep their keys.
@Suite struct CryptoShreddingTests {
    func headerKeyID(_ harness: PipelineHarness, _ path: String) -> String {
        Hex.encode(Array(try! Data(contentsOf: URL(fileURLWithPath: harness.stateDirectory + "/" + path)))[8..<16])
    }

    @Test func aPurgeRecordsAndDestroysThePartitionsKeyBeforeItRemovesTheFiles() async throws {
        let harness = try PipelineHarness()
        defer { Task { await harness.close() } }
        let png = try Fixtures.bytes("receipts/r-7731.png")
        harness.origin.setReply(.init(fields: ["Cache-Control": "max-age=300"], body: png), for: "http://origin.test/receipts/a.png")
        let u1 = [("Authorization", "Bearer t1")], u2 = [("Authorization", "Bearer t2")]
        _ = await harness.get("/receipts/a.png", u1)
        _ = await harness.get("/receipts/a.png", u2)
        let stores = try harness.auditRecords().filter { $0.entry.event == .store }
        #expect(stores.count == 2)
        let keyIDs = stores.compactMap(\.entry.keyId?.rawValue)
        #expect(keyIDs.count == 2 && keyIDs[0] != keyIDs[1])
        // The store record names the key in the file's header.
        let files = harness.filesUnderState().map(\.path).filter { $0.hasPrefix("sealed/") }
        #expect(Set(files.map { headerKeyID(harness, $0) }) == Set(keyIDs))

        #expect(try harness.service.purge(.credential(try BearerToken(token: "t1"))) == 1)
        let after = try harness.auditRecords().filter { $0.seq > stores[1].seq }
        #expect(after.map { "\($0.entry.event.rawValue):\($0.entry.reason?.rawValue ?? "")" }
                == ["shred:partition-key-destroyed", "purge:purge-credential", "purge:purge-credential"])
        let shred = try #require(after.first)
        #expect(shred.entry.keyId?.rawValue == keyIDs[0])
        #expect(shred.entry.partition == stores[0].entry.partition)
        #expect(shred.entry.tier?.rawValue == "private")
        #expect(shred.entry.storage == .encryptedDisk)
        #expect(shred.entry.key == nil)
        // t2's key and object are untouched; t1's next object gets a new key.
        #expect(await harness.get("/receipts/a.png", u2).fields["Cache-Status"] == "mediactl; hit; ttl=300")
        _ = await harness.get("/receipts/a.png", u1)
        let again = try #require(try harness.auditRecords().last { $0.entry.event == .store })
        #expect(again.entry.keyId != nil && again.entry.keyId?.rawValue != keyIDs[0])
        // A purge of a partition without objects destroys nothing and records no shred.
        _ = try harness.service.purge(.credential(try BearerToken(token: "t3")))
        #expect(try harness.auditRecords().filter { $0.entry.event == .shred }.count == 1)
    }
}

/// The signed erasure receipt of a purge by credential: what it holds, that it proves the purge record's inclusion in a
/// checkpoint signed by the log's key, that it names no credential or path, and that a changed byte fails.
@Suite struct ErasureReceiptServiceTests {
    @Test func aPurgeByCredentialGivesASignedReceiptThatProvesItsRecord() async throws {
        let harness = try PipelineHarness()
        defer { Task { await harness.close() } }
        let png = try Fixtures.bytes("receipts/r-7731.png"), jpeg = try Fixtures.bytes("receipts/r-7732.jpg")
        harness.origin.setReply(.init(fields: ["Cache-Control": "max-age=300"], body: png), for: "http://origin.test/receipts/a.png")
        harness.origin.setReply(.init(fields: ["Cache-Control": "max-age=300"], body: jpeg), for: "http://origin.test/receipts/b.jpg")
        let u1 = [("Authorization", "Bearer tok-erase-1")]
        _ = await harness.get("/receipts/a.png", u1)
        _ = await harness.get("/receipts/b.jpg", u1)
        _ = await harness.get("/receipts/a.png", [("Authorization", "Bearer t2")])

        let (count, text) = try harness.service.purgeWithReceipt(.credential(try BearerToken(token: "tok-erase-1")))
        #expect(count == 2)
        let signer = try #require(try AuditSigningKeyFile.existing(stateDirectory: harness.stateDirectory))
        let receipt = try ErasureReceipt.open(text, verifier: NoteVerifier(signer))
        let records = try harness.auditRecords()
        let summary = try #require(records.last { $0.entry.event == .purge })
        #expect(receipt.partition == summary.entry.partition?.hex)
        #expect(receipt.reason == "purge-credential")
        #expect(receipt.purgedAt == summary.time.rfc3339)
        #expect(receipt.removed == [ErasureReceipt.Removal(tier: "private", objects: 2, bytes: png.count + jpeg.count)])
        #expect(receipt.destroyedKeys == records.filter { $0.entry.event == .shred }.compactMap(\.entry.keyId?.rawValue))
        #expect(receipt.destroyedKeys.count == 1)
        #expect(receipt.log == signer.name)
        // The proof bundle: the summary's leaf is in the signed checkpoint's tree.
        let checkpoint = try TreeCheckpoint(text: NoteVerifier(signer).open(receipt.proof.checkpoint))
        #expect(receipt.proof.index == summary.seq - 1)
        #expect(MerkleTree.verifyInclusion(leaf: AuditTree.leafHash(summary.hash), index: receipt.proof.index,
                                           size: checkpoint.size, proof: receipt.proof.proof, root: checkpoint.root))
        for secret in ["tok-erase-1", "r-7731", "r-7732", "receipts/", "a.png"] { #expect(!text.contains(secret), "\(secret) in the receipt") }
        // Any changed value changes the signed bytes.
        let changed = text.replacingOccurrences(of: "\"objects\":2", with: "\"objects\":3")
        #expect(changed != text)
        #expect(throws: AuditError.self) { try ErasureReceipt.open(changed, verifier: NoteVerifier(signer)) }
        // A purge of no partition has no receipt.
        #expect(throws: ServiceError(.invalidPurge, "a receipt is made for a purge by credential or subject only")) {
            try harness.service.purgeWithReceipt(.all)
        }
    }
}
