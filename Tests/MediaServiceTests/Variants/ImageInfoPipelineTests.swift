import Foundation
import HTTPCaching
import MediaAudit
import MediaCore
import MediaService
import Testing

/// `?info=1` through the pipeline (docs/variants.md "Image info and placeholders"): JSON stored like a variant, in
/// the source's tier, class and partition, audited with `derivedFrom` and `transform: info=1`, served as a hit after.
@Suite struct ImageInfoPipelineTests {
    static let hubbleInfo = ##"{"width":1000,"height":872,"format":"jpeg","hasAlpha":false,"frames":1,"dominantColor":"#0b0d0b","thumbHash":"BfgBBoAHZWu5FZi1UqljmYbUpq5ggBs="}"##

    @Test func infoIsStoredAuditedAndServedAsAHit() async throws {
        let harness = try VariantHarness.make()
        let first = await harness.get("/large/hubble-1000.jpg?info=1")
        #expect(first.status == 200)
        #expect(first.fields["Content-Type"] == "application/json")
        #expect(String(decoding: first.body, as: UTF8.self) == Self.hubbleInfo)
        #expect(first.fields["Content-Length"] == String(first.body.count))
        #expect(first.fields["Mediactl-Image-Width"] == nil)
        #expect(first.fields["Cache-Status"] == "mediactl; fwd=uri-miss; ttl=3600; stored; detail=disk")
        let hit = await harness.get("/large/hubble-1000.jpg?info=1")
        #expect(hit.fields["Cache-Status"] == "mediactl; hit; ttl=3600")
        #expect(hit.body == first.body)
        let stores = try harness.auditRecords().filter { $0.event == .store }
        #expect(stores.map { $0.transform?.rawValue } == [nil, "info=1"])
        #expect(stores[1].derivedFrom == stores[0].key)
        #expect(stores.map(\.storage) == [.disk, .disk])
        await harness.close()
    }

    /// A receipt's info stays sealed in the credential's partition: t2, whom the origin refuses, gets no answer made
    /// from t1's receipt, and no file holds the JSON in plaintext.
    @Test func aReceiptsInfoIsSealedInItsPartition() async throws {
        let harness = try VariantHarness.make()
        let first = await harness.get("/receipts/r-7732.jpg?info=1", VariantPrivacyTests.t1)
        #expect(first.status == 200)
        #expect(first.outcome.storage == .stored(.encryptedDisk))
        #expect(first.fields["Vary"] == "Authorization")
        #expect(first.fields["Cache-Control"] == "private, no-store")
        #expect(String(decoding: first.body, as: UTF8.self).hasPrefix(#"{"width":448,"height":172,"format":"jpeg","hasAlpha":false,"frames":1,"#))
        for file in harness.filesUnderState() {
            #expect(!VariantHarness.contains(file.bytes, Array("thumbHash".utf8)), "\(file.path)")
        }
        let other = await harness.get("/receipts/r-7732.jpg?info=1", VariantPrivacyTests.t2)
        #expect(other.status == 403)
        let stores = try harness.auditRecords().filter { $0.event == .store }
        #expect(stores.map(\.storage) == [.encryptedDisk, .encryptedDisk])
        #expect(stores[0].partition != nil && stores[0].partition == stores[1].partition)
        await harness.close()
    }

    @Test func infoWithOtherParametersIsRefused() async throws {
        let harness = try VariantHarness.make()
        let refused = await harness.get("/large/hubble-1000.jpg?info=1&w=144")
        #expect(refused.status == 400)
        #expect(refused.fields["Content-Type"] == "application/problem+json")
        #expect(String(decoding: refused.body, as: UTF8.self).contains(
            #""detail":"info=1&w=144 is not allowed: info=1 takes no other variant parameter: it describes the source""#))
        let bad = await harness.get("/large/hubble-1000.jpg?info=yes")
        #expect(bad.status == 400)
        #expect(String(decoding: bad.body, as: UTF8.self).contains(#""detail":"info=yes is not allowed: info must be 1""#))
        await harness.close()
    }
}
