import Foundation
import HTTPCaching
import MediaAudit
import MediaCore
import MediaService
import Testing

/// The privacy rules of derived images (docs/variants.md): partitions, sealed storage, purge by credential,
/// metadata stripping.
@Suite struct VariantPrivacyTests {
    static let t1 = [("Authorization", "Bearer t1")]
    static let t2 = [("Authorization", "Bearer t2")]

    @Test func aReceiptVariantIsSealedAndKeptInItsCredentialsPartition() async throws {
        let harness = try VariantHarness.make()
        let source = try Fixtures.bytes("receipts/r-7732.jpg")
        let first = await harness.get("/receipts/r-7732.jpg?w=144", Self.t1)
        #expect(first.status == 200)
        #expect(try ImageValidator().validate(first.body).width == 144)
        #expect(first.outcome.storage == .stored(.encryptedDisk))
        #expect(first.fields["Cache-Control"] == "private, no-store")
        #expect(first.fields["Vary"] == "Authorization")
        let files = harness.filesUnderState()
        #expect(files.contains { $0.path.hasPrefix("sealed/private/") })
        #expect(!files.contains { $0.path.hasPrefix("disk/") })
        for file in files {
            #expect(!VariantHarness.sharesARun(file.bytes, with: first.body), "\(file.path)")
            #expect(!VariantHarness.sharesARun(file.bytes, with: source), "\(file.path)")
        }
        // t2, whom the origin refuses, never gets t1's bytes.
        let second = await harness.get("/receipts/r-7732.jpg?w=144", Self.t2)
        #expect(second.status == 403)
        #expect(second.body != first.body)
        #expect(!VariantHarness.sharesARun(second.body, with: first.body))
        let hit = await harness.get("/receipts/r-7732.jpg?w=144", Self.t1)
        #expect(hit.fields["Cache-Status"]?.hasPrefix("mediactl; hit") == true)
        #expect(hit.body == first.body)
        // Logout: the next t1 request is a miss.
        let removed = try harness.service.purge(.credential(try BearerToken(token: "t1")))
        #expect(removed == 2)
        let after = await harness.get("/receipts/r-7732.jpg?w=144", Self.t1)
        #expect(after.fields["Cache-Status"] == "mediactl; fwd=uri-miss; ttl=600; stored; detail=encrypted-disk")
        await harness.close()
    }

    @Test func theVariantRecordsNameTheSourcesPartitionAndClass() async throws {
        let harness = try VariantHarness.make()
        _ = await harness.get("/receipts/r-7732.jpg?w=144", Self.t1)
        let stores = try harness.auditRecords().filter { $0.event == .store }
        #expect(stores.count == 2)
        #expect(stores.map(\.storage) == [.encryptedDisk, .encryptedDisk])
        #expect(stores[0].partition != nil)
        #expect(stores[0].partition == stores[1].partition)
        #expect(stores.allSatisfy { $0.url == nil })
        #expect(stores[0].derivedFrom == nil)
        #expect(stores[1].derivedFrom == stores[0].key)
        #expect(stores[1].transform?.rawValue == "w=144,fit=inside,fmt=jpeg,q=80")
        await harness.close()
    }

    @Test func anUploadIsServedWithoutItsMetadataAndItsPixelsUntouched() async throws {
        let harness = try VariantHarness.make()
        let original = try Fixtures.bytes("uploads/gps-orient6.jpg")
        let response = await harness.get("/uploads/gps-orient6.jpg")
        #expect(response.status == 200)
        for marker in ["SN-4417-2208", "Acme Optics", "Pocket 9", "2026:06:14 09:41:07"] {
            #expect(VariantHarness.contains(original, Array(marker.utf8)), "the fixture has \(marker)")
            #expect(!VariantHarness.contains(response.body, Array(marker.utf8)), "\(marker)")
        }
        #expect(!VariantHarness.contains(response.body, [0x25, 0x88, 0x04, 0x00]))
        #expect(!VariantHarness.contains(response.body, [0x88, 0x25, 0x00, 0x04]))
        #expect(VariantHarness.scanData(response.body) == VariantHarness.scanData(original))
        #expect(VariantHarness.scanData(original) != nil)
        #expect(try ImageValidator().validate(response.body).width == 872)
        #expect(response.fields["ETag"]?.hasPrefix("\"m-") == true)
        #expect(response.fields["ETag"] != "\"src-1\"")
        // Revalidation with the origin still sends the origin's own validator.
        harness.clock.advance(400)
        harness.origin.setReply(.init(status: 304, fields: HTTPFields([("Cache-Control", "max-age=3600"), ("ETag", "\"src-1\"")])),
                                for: "http://origin.test/uploads/gps-orient6.jpg")
        let revalidated = await harness.get("/uploads/gps-orient6.jpg")
        #expect(revalidated.body == response.body)
        #expect(revalidated.fields["ETag"] == response.fields["ETag"])
        #expect(harness.origin.requests.last?.fields["If-None-Match"] == "\"src-1\"")
        // A client's conditional with the served tag is answered 304.
        let conditional = await harness.get("/uploads/gps-orient6.jpg", [("If-None-Match", response.fields["ETag"] ?? "")])
        #expect(conditional.status == 304)
        await harness.close()
    }

    @Test func anUploadVariantIsUprightWithoutEXIF() async throws {
        let harness = try VariantHarness.make()
        let response = await harness.get("/uploads/gps-orient6.jpg?w=144")
        #expect(response.status == 200)
        let info = try ImageValidator().validate(response.body)
        #expect(info.width == 144)
        #expect((125...126).contains(info.height))
        #expect(!VariantHarness.contains(response.body, Array("Exif".utf8)))
        #expect(!VariantHarness.contains(response.body, Array("SN-4417-2208".utf8)))
        await harness.close()
    }

    @Test func aStripTierRefusesNoTransform() async throws {
        let harness = try VariantHarness.make()
        harness.origin.setReply(.init(fields: HTTPFields([("Cache-Control", "max-age=60, no-transform")]),
                                      body: try Fixtures.bytes("uploads/gps-orient6.jpg")),
                                for: "http://origin.test/uploads/gps-orient6.jpg")
        for target in ["/uploads/gps-orient6.jpg", "/uploads/gps-orient6.jpg?w=144"] {
            let response = await harness.get(target)
            #expect(response.status == 502, "\(target)")
            #expect(PipelineSupport.problemCode(response) == "origin-forbids-transform", "\(target)")
            #expect(!VariantHarness.contains(response.body, Array("SN-4417-2208".utf8)))
        }
        await harness.close()
    }
}
