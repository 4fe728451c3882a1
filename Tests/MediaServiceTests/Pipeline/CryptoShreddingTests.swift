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
