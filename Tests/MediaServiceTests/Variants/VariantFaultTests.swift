import Foundation
import HTTPCaching
import MediaCore
import MediaService
import Testing
@testable import MediaService

/// CASES.md C20–C24 (derived images) through the pipeline: the whole kind of fault, not only the example.
@Suite struct VariantFaultTests {
    /// C20: a variant of an origin-`private` answer on a shared tier is never stored, and clients are told
    /// what the origin said, not a public lifetime.
    @Test func c20PrivateOriginAnswerIsNeverRepublishedAsPublic() async throws {
        let harness = try VariantHarness.make()
        harness.origin.setReply(.init(fields: HTTPFields([("Cache-Control", "private, max-age=60")]),
                                      body: try Fixtures.bytes("catalog/horse-d29d871c.jpg")),
                                for: "http://origin.test/uploads/own.jpg")
        for _ in 0..<2 {
            let response = await harness.get("/uploads/own.jpg?w=72", [("Authorization", "Bearer someone"), ("Cookie", "s=1")])
            #expect(response.status == 200)
            #expect(response.outcome.storage == .notStored)
            #expect(response.fields["Cache-Control"] == "private, max-age=60")
        }
        // The shared tier strips credentials: the origin never saw them, so the answer cannot be theirs.
        #expect(harness.origin.requests.allSatisfy { $0.fields["Authorization"] == nil && $0.fields["Cookie"] == nil })
        #expect(try harness.auditRecords().filter { $0.event == .store }.isEmpty)
        await harness.close()
    }

    /// C21: the chosen format is the key; `Vary: Accept` on every negotiated answer; a JPEG-only client gets
    /// JPEG right after an AVIF client, and a new browser's Accept string does not make a new variant.
    @Test func c21NegotiationKeysOnTheChosenFormat() async throws {
        let harness = try VariantHarness.make()
        let target = "/large/hubble-1000.jpg?w=288&fmt=auto"
        let avif = await harness.get(target, [("Accept", "image/avif,image/webp,*/*;q=0.8")])
        #expect(avif.fields["Content-Type"] == "image/avif")
        let jpeg = await harness.get(target, [("Accept", "image/jpeg")])
        #expect(jpeg.fields["Content-Type"] == "image/jpeg")
        let other = await harness.get(target, [("Accept", "image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8")])
        #expect(other.fields["Content-Type"] == "image/avif")
        #expect(other.fields["Cache-Status"]?.hasPrefix("mediactl; hit") == true)
        for response in [avif, jpeg, other] { #expect(response.fields["Vary"] == "Accept") }
        #expect(try harness.auditRecords().filter { $0.event == .store }.count == 3)  // source, avif, legacy
        await harness.close()
    }

    /// C22: a full transform queue answers 503 with Retry-After at once, before any decode.
    @Test func c22FullTransformQueueIs503WithRetryAfter() async throws {
        let transforms = TransformConfiguration(workers: 1, queueLimit: 0, avifWorkers: 1, timeout: 10)
        let harness = try VariantHarness.make(transforms: transforms)
        let pool = TransformWorkers.shared("transform", .init(workers: 1, queueLimit: 0))
        let release = DispatchSemaphore(value: 0), started = DispatchSemaphore(value: 0)
        let blocker = Task { try await pool.run { started.signal(); release.wait() } }
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            DispatchQueue.global().async { started.wait(); done.resume() }
        }
        let response = await harness.get("/large/hubble-1000.jpg?w=144")
        #expect(response.status == 503)
        #expect(PipelineSupport.problemCode(response) == "transform-queue-full")
        #expect(response.fields["Retry-After"] == "1")
        release.signal()
        try await blocker.value
        let later = await harness.get("/large/hubble-1000.jpg?w=144")
        #expect(later.status == 200)
        await harness.close()
    }

    /// C22: a transform whose deadline passed answers 503 (checked before it starts and between steps).
    @Test func c22TransformTimeoutIs503() async throws {
        let harness = try VariantHarness.make(transforms: TransformConfiguration(timeout: 0))
        let response = await harness.get("/large/hubble-1000.jpg?w=144")
        #expect(response.status == 503)
        #expect(PipelineSupport.problemCode(response) == "transform-timeout")
        #expect(response.fields["Retry-After"] == "1")
        await harness.close()
    }

    /// C23 and C24: from a stripping tier, no output format and no original carries the upload's GPS block,
    /// serial, make, model or EXIF; every variant is upright.
    @Test func c24NothingServedFromAStrippingTierCarriesTheUploadsMetadata() async throws {
        let harness = try VariantHarness.make()
        var bodies: [(String, [UInt8])] = []
        let original = await harness.get("/uploads/gps-orient6.jpg")
        bodies.append(("original", original.body))
        for format in ["jpeg", "webp", "avif", "png"] {
            let response = await harness.get("/uploads/gps-orient6.jpg?w=288&fmt=" + format)
            #expect(response.status == 200, "\(format)")
            let info = try ImageValidator().validate(response.body)
            #expect(info.width == 288, "\(format)")
            #expect(info.height == 251, "\(format)")
            bodies.append((format, response.body))
        }
        for (name, body) in bodies {
            for marker in ["SN-4417-2208", "Acme Optics", "Pocket 9", "http://ns.adobe.com/xap"] {
                #expect(!VariantHarness.contains(body, Array(marker.utf8)), "\(name): \(marker)")
            }
            #expect(!VariantHarness.contains(body, [0x25, 0x88, 0x04, 0x00]), "\(name): GPS IFD")
            #expect(!VariantHarness.contains(body, [0x88, 0x25, 0x00, 0x04]), "\(name): GPS IFD")
            if name != "original" { #expect(!VariantHarness.contains(body, Array("Exif".utf8)), "\(name): EXIF") }
        }
        await harness.close()
    }
}
