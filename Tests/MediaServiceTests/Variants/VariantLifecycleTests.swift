import Foundation
import HTTPCaching
import MediaAudit
import MediaCore
import MediaService
import MediaStorage
import MediaTestSupport
import Testing

/// A derived image's life with its source: revalidation, keys, invalidation, stripping and the formats produced,
/// each with its right answer.
@Suite struct VariantLifecycleTests {
    static let hubble = "http://origin.test/large/hubble-1000.jpg"

    /// A revalidation whose 304 makes the source `private` gives a variant the shared tier does not store.
    @Test func aSourceMadePrivateByA304GivesAnUnstoredVariant() async throws {
        let harness = try VariantHarness.make()
        harness.origin.setReply(.init(fields: HTTPFields([("Cache-Control", "max-age=60"), ("ETag", "\"h1\"")]),
                                      body: try Fixtures.bytes("large/hubble-1000.jpg")), for: Self.hubble)
        _ = await harness.get("/large/hubble-1000.jpg")
        harness.clock.advance(61)
        harness.origin.setReply(.init(status: 304, fields: HTTPFields([("Cache-Control", "private, max-age=600"), ("ETag", "\"h1\"")])),
                                for: Self.hubble)
        let variant = await harness.get("/large/hubble-1000.jpg?w=144")
        #expect(variant.status == 200)
        #expect(variant.outcome.storage == .notStored)
        #expect(variant.outcome.reason == "private-in-shared-cache")
        #expect(variant.fields["Cache-Control"] == "private, max-age=600")
        await harness.close()
    }

    /// `Cache-Control: no-cache` revalidates the source; an unchanged source does not cost another transform.
    @Test func noCacheOnAnUnchangedSourceReusesTheVariant() async throws {
        let harness = try VariantHarness.make()
        harness.origin.setReply(.init(fields: HTTPFields([("Cache-Control", "max-age=60"), ("ETag", "\"h1\"")]),
                                      body: try Fixtures.bytes("large/hubble-1000.jpg")), for: Self.hubble)
        let first = await harness.get("/large/hubble-1000.jpg?w=144&fmt=avif")
        harness.origin.setReply(.init(status: 304, fields: HTTPFields([("Cache-Control", "max-age=60"), ("ETag", "\"h1\"")])),
                                for: Self.hubble)
        for _ in 0..<3 {
            let again = await harness.get("/large/hubble-1000.jpg?w=144&fmt=avif", [("Cache-Control", "no-cache")])
            #expect(again.body == first.body)
            #expect(again.fields["Cache-Status"]?.contains("stored") == true)
        }
        let metrics = await harness.get("/_mediactl/metrics").text
        #expect(metrics.contains("mediactl_variants_derived_total{tier=\"public\"} 1\n"))
        #expect(metrics.contains("mediactl_transform_seconds_count{tier=\"public\"} 1\n"))
        await harness.close()
    }

    /// `?`, `?&`, `?&&` are the source itself: one key, one stored object, the origin asked without them.
    @Test func emptyQueryItemsAreTheSourceItself() async throws {
        let harness = try VariantHarness.make()
        for target in ["/large/hubble-1000.jpg", "/large/hubble-1000.jpg?", "/large/hubble-1000.jpg?&", "/large/hubble-1000.jpg?&&&"] {
            let response = await harness.get(target)
            #expect(response.status == 200, "\(target)")
        }
        #expect(harness.origin.requests.map(\.url) == [Self.hubble])
        #expect(try harness.auditRecords().filter { $0.event == .store }.count == 1)
        await harness.close()
    }

    /// PNG is lossless: every `q` is one variant.
    @Test func pngVariantsHaveOneKeyWhateverQ() async throws {
        let harness = try VariantHarness.make()
        let first = await harness.get("/large/hubble-1000.jpg?w=72&fmt=png&q=1")
        #expect(first.outcome.variant == "w=72,fit=inside,fmt=png")
        let second = await harness.get("/large/hubble-1000.jpg?w=72&fmt=png&q=90")
        #expect(second.fields["Cache-Status"]?.hasPrefix("mediactl; hit") == true)
        await harness.close()
    }

    /// An unsafe request through a pass-through route invalidates the source and its variants.
    @Test func invalidationTakesTheVariantsAlong() async throws {
        let policy = """
        { "tiers": { "public": { "storage": "disk", "variants": \(VariantHarness.variants) } },
          "routes": [ { "name": "large", "mount": "/large/", "origin": "http://origin.test/large/", "tier": "public",
                        "methods": "all" } ] }
        """
        let harness = try PipelineHarness(policyJSON: policy)
        harness.origin.setReply(.init(fields: HTTPFields([("Cache-Control", "max-age=600")]),
                                      body: try Fixtures.bytes("large/hubble-1000.jpg")), for: Self.hubble)
        _ = await harness.get("/large/hubble-1000.jpg?w=144")
        harness.origin.setReply(.init(status: 204), for: Self.hubble)
        _ = await harness.service.handle(ServiceRequest(method: "PUT", target: "/large/hubble-1000.jpg", body: [1]))
        let events = PipelineSupport.events(try harness.auditRecords())
        #expect(events.contains("invalidate:unsafe-method"))
        #expect(events.contains("evict:unsafe-method"))
        harness.origin.setReply(.init(fields: HTTPFields([("Cache-Control", "max-age=600")]),
                                      body: try Fixtures.bytes("large/hubble-1000.jpg")), for: Self.hubble)
        let after = await harness.get("/large/hubble-1000.jpg?w=144")
        #expect(after.fields["Cache-Status"]?.hasPrefix("mediactl; hit") == false)
        await harness.close()
    }

    /// A tier switched to `metadata: strip` never serves what it stored unstripped under `keep`.
    @Test func unstrippedEntriesOfATierThatNowStripsGoAtStart() async throws {
        let keep = """
        { "tiers": { "avatar": { "storage": "disk", "variants": \(VariantHarness.variants) } },
          "routes": [ { "name": "uploads", "mount": "/uploads/", "origin": "http://origin.test/uploads/", "tier": "avatar" } ] }
        """
        let first = try PipelineHarness(policyJSON: keep)
        first.origin.setReply(.init(fields: HTTPFields([("Cache-Control", "max-age=600")]),
                                    body: try Fixtures.bytes("uploads/gps-orient6.jpg")),
                              for: "http://origin.test/uploads/gps-orient6.jpg")
        let kept = await first.get("/uploads/gps-orient6.jpg")
        #expect(VariantHarness.contains(kept.body, Array("SN-4417-2208".utf8)))
        _ = await first.get("/uploads/gps-orient6.jpg?w=144")
        await first.service.stop()
        let strip = keep.replacingOccurrences(of: #""storage": "disk","#, with: #""storage": "disk", "metadata": "strip","#)
        let second = try PipelineHarness(policyJSON: strip, stateDirectory: first.stateDirectory)
        let evictions = PipelineSupport.events(try second.auditRecords()).filter { $0.hasPrefix("evict") }
        // The original and its variant, both stored under `keep`'s keys.
        #expect(evictions == ["evict:tier-metadata-changed", "evict:tier-metadata-changed"])
        second.origin.setReply(.init(fields: HTTPFields([("Cache-Control", "max-age=600")]),
                                     body: try Fixtures.bytes("uploads/gps-orient6.jpg")),
                               for: "http://origin.test/uploads/gps-orient6.jpg")
        let served = await second.get("/uploads/gps-orient6.jpg")
        #expect(served.fields["Cache-Status"]?.hasPrefix("mediactl; hit") == false)
        #expect(!VariantHarness.contains(served.body, Array("SN-4417-2208".utf8)))
        let variant = await second.get("/uploads/gps-orient6.jpg?w=144")
        #expect(!VariantHarness.contains(variant.body, Array("Exif".utf8)))
        await second.close()
    }

    /// A tier declaring only WebP never answers JPEG, with or without `fmt`.
    @Test func onlyDeclaredFormatsAreProduced() async throws {
        let policy = """
        { "tiers": { "webp": { "storage": "memory", "variants": { "widths": [144], "formats": ["webp"] } } },
          "routes": [ { "name": "w", "mount": "/w/", "origin": "http://origin.test/large/", "tier": "webp" } ] }
        """
        let harness = try PipelineHarness(policyJSON: policy)
        harness.origin.setReply(.init(fields: HTTPFields([("Cache-Control", "max-age=600")]),
                                      body: try Fixtures.bytes("large/hubble-1000.jpg")), for: Self.hubble)
        for target in ["/w/hubble-1000.jpg?w=144", "/w/hubble-1000.jpg?w=144&fmt=auto"] {
            let response = await harness.get(target)
            #expect(response.fields["Content-Type"] == "image/webp", "\(target)")
        }
        await harness.close()
    }
}
