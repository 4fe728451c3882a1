import Foundation
import HTTPCaching
import MediaAudit
import MediaCore
import MediaService
import Testing

/// Derived images through the pipeline (docs/variants.md): keys, storage, coalescing with the source,
/// negotiation, refusals.
@Suite struct VariantPipelineTests {
    static let astronaut = "http://origin.test/large/astronaut-4000.jpg"

    @Test func largeJPEGAt144IsStoredThenHitAndTheOriginSeesTheSourceOnce() async throws {
        let harness = try VariantHarness.make()
        let miss = await harness.get("/large/astronaut-4000.jpg?w=144")
        #expect(miss.status == 200)
        #expect(miss.fields["Content-Type"] == "image/jpeg")
        let info = try ImageValidator().validate(miss.body)
        #expect(info.width == 144)
        #expect(info.height == 144)
        #expect(miss.body.count < 20_000)
        #expect(miss.fields["Cache-Status"] == "mediactl; fwd=uri-miss; ttl=3600; stored; detail=disk")
        #expect(miss.outcome.storage == .stored(.disk))
        #expect(miss.outcome.variant == "w=144,fit=inside,fmt=jpeg,q=80")
        #expect(miss.fields["ETag"]?.hasPrefix("\"v-") == true)
        #expect(miss.fields["Cache-Control"] == "public, max-age=31536000, immutable")
        let hit = await harness.get("/large/astronaut-4000.jpg?w=144")
        #expect(hit.status == 200)
        #expect(hit.body == miss.body)
        #expect(hit.fields["Cache-Status"]?.hasPrefix("mediactl; hit; ttl=") == true)
        #expect(hit.outcome.variant == "w=144,fit=inside,fmt=jpeg,q=80")
        #expect(harness.origin.callCount(for: Self.astronaut) == 1)
        // The source itself is stored too, under its own key: a request for it is a hit.
        let source = await harness.get("/large/astronaut-4000.jpg")
        #expect(source.body == (try Fixtures.bytes("large/astronaut-4000.jpg")))
        #expect(source.fields["Cache-Status"]?.hasPrefix("mediactl; hit") == true)
        #expect(harness.origin.callCount(for: Self.astronaut) == 1)
        await harness.close()
    }

    @Test func metricsCountDerivationsAndTheirTimes() async throws {
        let harness = try VariantHarness.make()
        _ = await harness.get("/large/astronaut-4000.jpg?w=144")
        _ = await harness.get("/large/astronaut-4000.jpg?w=144")
        let metrics = await harness.get("/_mediactl/metrics").text
        let lines = metrics.split(separator: "\n").map(String.init)
        #expect(lines.contains("mediactl_variants_derived_total{tier=\"public\"} 1"))
        #expect(lines.contains("mediactl_variants_derived_total{tier=\"avatar\"} 0"))
        #expect(lines.contains("# TYPE mediactl_transform_seconds histogram"))
        #expect(lines.contains("mediactl_transform_seconds_count{tier=\"public\"} 1"))
        #expect(lines.contains("mediactl_transform_seconds_bucket{tier=\"public\",le=\"+Inf\"} 1"))
        #expect(lines.contains("mediactl_transform_seconds_bucket{tier=\"avatar\",le=\"10\"} 0"))
        #expect(lines.contains("mediactl_hits_total{tier=\"public\"} 1"))
        await harness.close()
    }

    @Test func dprFoldsIntoTheWidthAndSharesTheStoredVariant() async throws {
        let harness = try VariantHarness.make()
        let doubled = await harness.get("/large/astronaut-4000.jpg?w=72&dpr=2")
        #expect(doubled.status == 200)
        #expect(try ImageValidator().validate(doubled.body).width == 144)
        let same = await harness.get("/large/astronaut-4000.jpg?w=144&dpr=1")
        #expect(same.fields["Cache-Status"]?.hasPrefix("mediactl; hit") == true)
        #expect(same.body == doubled.body)
        await harness.close()
    }

    @Test func undeclaredParametersAre400WithoutContactingTheOrigin() async throws {
        let harness = try VariantHarness.make()
        let cases: [(String, String)] = [
            ("w=145", "w=145 is not allowed: w × dpr must be one of 72, 144, 288, 576, 1152"),
        ]
        for (query, detail) in cases {
            let response = await harness.get("/large/astronaut-4000.jpg?" + query)
            #expect(response.status == 400)
            #expect(response.fields["Content-Type"] == "application/problem+json")
            #expect(PipelineSupport.problemCode(response) == "variant-not-allowed")
            #expect(PipelineSupport.problemMembers(response)?["detail"] as? String == detail)
        }
        for query in ["foo=1", "w=144&w=288", "h=144", "w=144&fmt=gif", "w=144&dpr=4", "w=144&q=0", "w=144&fit=fill"] {
            let response = await harness.get("/large/astronaut-4000.jpg?" + query)
            #expect(response.status == 400, "\(query)")
            #expect(PipelineSupport.problemCode(response) == "variant-not-allowed", "\(query)")
        }
        #expect(harness.origin.totalCallCount == 0)
        await harness.close()
    }

    @Test func autoChoosesFromAcceptAndVariesOnIt() async throws {
        let harness = try VariantHarness.make()
        let webp = await harness.get("/large/hubble-1000.jpg?w=576&fmt=auto", [("Accept", "image/webp,*/*")])
        #expect(webp.status == 200)
        #expect(webp.fields["Content-Type"] == "image/webp")
        #expect(webp.fields["Vary"] == "Accept")
        #expect(webp.outcome.variant == "w=576,fit=inside,fmt=webp,q=80")
        let info = try ImageValidator().validate(webp.body)
        #expect(info.width == 576)
        let plain = await harness.get("/large/hubble-1000.jpg?w=576&fmt=auto", [("Accept", "*/*")])
        #expect(plain.fields["Content-Type"] == "image/jpeg")
        #expect(plain.fields["Vary"] == "Accept")
        // Another Accept value in the same bucket is a hit on the stored WebP.
        let again = await harness.get("/large/hubble-1000.jpg?w=576&fmt=auto", [("Accept", "image/webp")])
        #expect(again.fields["Cache-Status"]?.hasPrefix("mediactl; hit") == true)
        #expect(again.body == webp.body)
        #expect(harness.origin.callCount(for: "http://origin.test/large/hubble-1000.jpg") == 1)
        await harness.close()
    }

    @Test func explicitFormatsAreValidatedAndStored() async throws {
        let harness = try VariantHarness.make()
        for (format, type) in [("avif", "image/avif"), ("png", "image/png"), ("webp", "image/webp"), ("jpeg", "image/jpeg")] {
            let response = await harness.get("/large/hubble-1000.jpg?w=144&fmt=" + format)
            #expect(response.status == 200, "\(format)")
            #expect(response.fields["Content-Type"] == type)
            #expect(response.fields["Vary"] == nil)
            let info = try ImageValidator().validate(response.body)
            #expect(info.format.mimeType == type)
            #expect(info.width == 144)
            #expect(info.height == 126)
            #expect(response.outcome.variant == (format == "png" ? "w=144,fit=inside,fmt=png" : "w=144,fit=inside,fmt=\(format),q=80"))
        }
        // AVIF above maxAVIFWidth is refused before any work.
        let wide = await harness.get("/large/hubble-1000.jpg?w=1152&fmt=avif")
        #expect(wide.status == 400)
        #expect(PipelineSupport.problemCode(wide) == "variant-not-allowed")
        await harness.close()
    }

    @Test func aSourceVaryingOnAcceptKeepsItsVariantsOutOfStorage() async throws {
        let harness = try VariantHarness.make()
        harness.origin.setReply(.init(fields: HTTPFields([("Cache-Control", "max-age=60"), ("Vary", "Accept")]),
                                      body: try Fixtures.bytes("catalog/horse-d29d871c.jpg")),
                                for: "http://origin.test/large/horse.jpg")
        let response = await harness.get("/large/horse.jpg?w=72")
        #expect(response.status == 200)
        #expect(response.outcome.storage == .notStored)
        #expect(response.outcome.reason == "source-varies")
        harness.origin.setReply(.init(fields: HTTPFields([("Cache-Control", "max-age=60"), ("Vary", "Accept-Encoding")]),
                                      body: try Fixtures.bytes("catalog/horse-d29d871c.jpg")),
                                for: "http://origin.test/large/coded.jpg")
        let coded = await harness.get("/large/coded.jpg?w=72")
        #expect(coded.outcome.storage == .stored(.disk))
        let again = await harness.get("/large/coded.jpg?w=72")
        #expect(again.fields["Cache-Status"]?.hasPrefix("mediactl; hit") == true)
        await harness.close()
    }

    @Test func aNoStoreSourceGivesAVariantThatIsNeverStored() async throws {
        let harness = try VariantHarness.make()
        let response = await harness.get("/one-time/horse.jpg?w=72")
        #expect(response.status == 200)
        #expect(try ImageValidator().validate(response.body).width == 72)
        #expect(response.outcome.storage == .notStored)
        let again = await harness.get("/one-time/horse.jpg?w=72")
        #expect(again.outcome.storage == .notStored)
        #expect(harness.origin.callCount(for: "http://origin.test/one-time/horse.jpg") == 2)
        #expect(try harness.auditRecords().filter { $0.event == .store }.isEmpty)
        await harness.close()
    }

    @Test func aMemorySourceGivesAMemoryVariant() async throws {
        let harness = try VariantHarness.make()
        let response = await harness.get("/scratch/horse.jpg?w=72")
        #expect(response.outcome.storage == .stored(.memory))
        let stores = try harness.auditRecords().filter { $0.event == .store }
        #expect(stores.map(\.storage) == [.memory, .memory])
        await harness.close()
    }

    @Test func purgeByRouteRemovesVariants() async throws {
        let harness = try VariantHarness.make()
        _ = await harness.get("/large/astronaut-4000.jpg?w=144")
        #expect(try harness.service.purge(.route("large")) == 2)
        let again = await harness.get("/large/astronaut-4000.jpg?w=144")
        #expect(again.fields["Cache-Status"] == "mediactl; fwd=uri-miss; ttl=3600; stored; detail=disk")
        #expect(harness.origin.callCount(for: Self.astronaut) == 2)
        await harness.close()
    }

    @Test func aChangedSourceTakesItsVariantsAlong() async throws {
        let harness = try VariantHarness.make()
        _ = await harness.get("/large/astronaut-4000.jpg?w=144")
        _ = await harness.get("/large/astronaut-4000.jpg?w=288")
        harness.clock.advance(3601)
        let replacement = try Fixtures.bytes("large/hubble-1000.jpg")
        harness.origin.setReply(.init(fields: HTTPFields([("Cache-Control", "max-age=3600"), ("ETag", "\"src-2\"")]),
                                      body: replacement), for: Self.astronaut)
        let changed = await harness.get("/large/astronaut-4000.jpg?w=144")
        #expect(changed.status == 200)
        let info = try ImageValidator().validate(changed.body)
        #expect(info.width == 144)
        #expect(info.height == 126)
        let evictions = try harness.auditRecords().filter { $0.event == .evict }
        #expect(evictions.map(\.reason?.rawValue) == ["source-changed", "source-changed"])
        // The other width was dropped too: it is derived again from the new source.
        let other = await harness.get("/large/astronaut-4000.jpg?w=288")
        // Derived from the source stored by the request before: made here, nothing forwarded (no `fwd`).
        #expect(other.fields["Cache-Status"] == "mediactl; ttl=3600; stored; detail=disk")
        #expect(try ImageValidator().validate(other.body).height == 251)
        await harness.close()
    }

    @Test func theVariantIsNeverFresherThanItsSource() async throws {
        let harness = try VariantHarness.make()
        let miss = await harness.get("/large/astronaut-4000.jpg?w=144")
        #expect(miss.fields["Cache-Status"] == "mediactl; fwd=uri-miss; ttl=3600; stored; detail=disk")
        harness.clock.advance(1800)
        let hit = await harness.get("/large/astronaut-4000.jpg?w=144")
        #expect(hit.fields["Cache-Status"] == "mediactl; hit; ttl=1800")
        #expect(hit.fields["Age"] == "1800")
        await harness.close()
    }

    @Test func noTransformServesTheOriginalOnATierThatKeepsMetadata() async throws {
        let harness = try VariantHarness.make()
        let body = try Fixtures.bytes("large/hubble-1000.jpg")
        harness.origin.setReply(.init(fields: HTTPFields([("Cache-Control", "max-age=60, no-transform")]), body: body),
                                for: "http://origin.test/large/hubble-1000.jpg")
        let response = await harness.get("/large/hubble-1000.jpg?w=144")
        #expect(response.status == 200)
        #expect(response.body == body)
        #expect(response.outcome.reason == "origin-forbids-transform")
        await harness.close()
    }

    @Test func theMemoryFastPathServesAStoredVariant() async throws {
        let harness = try VariantHarness.make()
        _ = await harness.get("/large/astronaut-4000.jpg?w=144")
        let fast = harness.service.handleIfCached(ServiceRequest(target: "/large/astronaut-4000.jpg?w=144"))
        #expect(fast?.status == 200)
        #expect(fast?.fields["Cache-Status"]?.hasPrefix("mediactl; hit") == true)
        #expect(fast?.outcome.variant == "w=144,fit=inside,fmt=jpeg,q=80")
        // fmt=auto depends on Accept: its answer comes from the full path, with Vary.
        _ = await harness.get("/large/astronaut-4000.jpg?w=144&fmt=auto", [("Accept", "image/avif")])
        let negotiated = harness.service.handleIfCached(ServiceRequest(target: "/large/astronaut-4000.jpg?w=144&fmt=auto",
                                                                       fields: ["Accept": "image/avif"]))
        #expect(negotiated?.fields["Content-Type"] == "image/avif")
        #expect(negotiated?.fields["Vary"] == "Accept")
        await harness.close()
    }
}
