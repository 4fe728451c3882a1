import Foundation
import HTTPCaching
import MediaService
import MediaTestSupport
import Testing

/// RFC 9110 §14 on image tiers: the cache never forwards `Range` (it needs the whole image to validate and
/// store it), so every range of an image, a stripped original or a derived variant is cut from the complete
/// representation it serves; the private tier keeps `private, no-store` and its partition.
@Suite struct RangeImageTierServiceTests {
    static let horse = "http://origin.test/catalog/horse.jpg"

    @Test func aMissFetchesTheWholeImageStoresItAndAnswersTheRange() async throws {
        let harness = try PipelineHarness()
        defer { Task { await harness.close() } }
        let jpeg = try Fixtures.bytes("catalog/horse-d29d871c.jpg")
        harness.origin.setReply(.init(fields: ["Cache-Control": "max-age=60", "ETag": "\"h\""], body: jpeg), for: Self.horse)
        let miss = await harness.get("/catalog/horse.jpg", [("Range", "bytes=0-99"), ("If-Range", "\"h\"")])
        #expect(miss.status == 206)
        #expect(miss.body == Array(jpeg[0..<100]))
        #expect(miss.fields["Content-Range"] == "bytes 0-99/\(jpeg.count)")
        #expect(miss.fields["Content-Length"] == "100")
        #expect(miss.fields["Content-Type"] == "image/jpeg")
        #expect(miss.fields["Accept-Ranges"] == "bytes")
        #expect(miss.outcome.storage == .stored(.disk))
        #expect(harness.origin.requests.first?.fields["Range"] == nil)
        #expect(harness.origin.requests.first?.fields["If-Range"] == nil)
        let tail = await harness.get("/catalog/horse.jpg", [("Range", "bytes=100-")])
        #expect(tail.status == 206)
        #expect(tail.body == Array(jpeg[100...]))
        #expect(tail.fields["Content-Range"] == "bytes 100-\(jpeg.count - 1)/\(jpeg.count)")
        #expect(tail.fields["Cache-Control"] == "public, max-age=31536000, immutable")
        #expect(tail.fields["Cache-Status"] == "mediactl; hit; ttl=60")
        let unsatisfiable = await harness.get("/catalog/horse.jpg", [("Range", "bytes=\(jpeg.count)-")])
        #expect(unsatisfiable.status == 416)
        #expect(unsatisfiable.fields["Content-Range"] == "bytes */\(jpeg.count)")
        #expect(harness.origin.totalCallCount == 1)
        // The memory-hit fast path advertises ranges on plain hits, exactly as the full path does.
        let fast = try #require(harness.service.handleIfCached(ServiceRequest(target: "/catalog/horse.jpg")))
        let full = await harness.get("/catalog/horse.jpg")
        #expect(fast.fields["Accept-Ranges"] == "bytes")
        #expect(fast.fields == full.fields)
    }

    @Test func thePrivateTierServesRangesOfTheSamePartitionOnly() async throws {
        let harness = try PipelineHarness()
        defer { Task { await harness.close() } }
        let png = PipelineSupport.markedPNG("RANGE-PRIVATE")
        harness.origin.setReply(.init(fields: ["Cache-Control": "max-age=60"], body: png), for: "http://origin.test/receipts/r.png")
        let first = await harness.get("/receipts/r.png", [("Authorization", "Bearer t1"), ("Range", "bytes=0-7")])
        #expect(first.status == 206)
        #expect(first.body == Array(png[0..<8]))
        #expect(first.fields["Cache-Control"] == "private, no-store")
        #expect(first.fields.listValues(for: "Vary").contains("Authorization"))
        let hit = await harness.get("/receipts/r.png", [("Authorization", "Bearer t1"), ("Range", "bytes=-4")])
        #expect(hit.status == 206)
        #expect(hit.body == Array(png[(png.count - 4)...]))
        #expect(hit.fields["Cache-Control"] == "private, no-store")
        #expect(hit.outcome.storage == .hit)
        #expect(harness.origin.totalCallCount == 1)
        // Another credential is another partition: its range request goes to the origin.
        let other = await harness.get("/receipts/r.png", [("Authorization", "Bearer t2"), ("Range", "bytes=0-7")])
        #expect(other.status == 206)
        #expect(other.outcome.storage != .hit)
        #expect(harness.origin.totalCallCount == 2)
    }

    /// A derived variant is a complete stored representation with a strong `ETag` of its bytes: its ranges are
    /// cut from it, and `If-Range` compares with that tag (never the source's).
    @Test func aVariantServesRangesOfItsOwnBytes() async throws {
        let harness = try VariantHarness.make()
        defer { Task { await harness.close() } }
        let whole = await harness.get("/large/hubble-1000.jpg?w=144")
        #expect(whole.status == 200)
        #expect(whole.fields["Accept-Ranges"] == "bytes")
        let etag = try #require(whole.fields["ETag"])
        let partial = await harness.get("/large/hubble-1000.jpg?w=144", [("Range", "bytes=0-9"), ("If-Range", etag)])
        #expect(partial.status == 206)
        #expect(partial.body == Array(whole.body[0..<10]))
        #expect(partial.fields["Content-Range"] == "bytes 0-9/\(whole.body.count)")
        #expect(partial.outcome.variant == "w=144,fit=inside,fmt=jpeg,q=80")
        let source = await harness.get("/large/hubble-1000.jpg?w=144", [("Range", "bytes=0-9"), ("If-Range", "\"src-1\"")])
        #expect(source.status == 200)
        #expect(source.body == whole.body)
        // A variant derived on this very request is ranged too (the source request carries no Range).
        let derived = await harness.get("/large/astronaut-4000.jpg?w=72", [("Range", "bytes=-5")])
        #expect(derived.status == 206)
        #expect(derived.body.count == 5)
        #expect(harness.origin.requests.allSatisfy { $0.fields["Range"] == nil })
    }

    /// A stripped original is served with its own `ETag` (`m-…`): `If-Range` with the origin's tag gets it whole.
    @Test func aStrippedOriginalComparesIfRangeWithItsServedETag() async throws {
        let harness = try VariantHarness.make()
        defer { Task { await harness.close() } }
        let whole = await harness.get("/uploads/gps-orient6.jpg")
        #expect(whole.status == 200)
        let served = try #require(whole.fields["ETag"])
        #expect(served.hasPrefix("\"m-"))
        let ranged = await harness.get("/uploads/gps-orient6.jpg", [("Range", "bytes=0-3"), ("If-Range", served)])
        #expect(ranged.status == 206)
        #expect(ranged.body == Array(whole.body[0..<4]))
        let byOriginTag = await harness.get("/uploads/gps-orient6.jpg", [("Range", "bytes=0-3"), ("If-Range", "\"src-1\"")])
        #expect(byOriginTag.status == 200)
        #expect(byOriginTag.body == whole.body)
    }
}
