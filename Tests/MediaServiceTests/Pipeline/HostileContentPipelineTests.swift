import HTTPCaching
import MediaService
import MediaTestSupport
import Testing

/// CASES.md "Hostile content", C15–C17: refused before storage with exact codes, audited `skip`,
/// nothing written under `disk/`, and the next normal image still works.
@Suite struct HostileContentPipelineTests {
    struct Refusal: Sendable, CustomTestStringConvertible {
        var fixture: String?
        var body: [UInt8]?
        var contentType: String
        var code: String
        var detail: String
        var testDescription: String { fixture ?? contentType }

        func bytes() throws -> [UInt8] {
            if let fixture { return try Fixtures.bytes(fixture) }
            return body ?? []
        }
    }

    static let notAnImage = "the origin's answer was refused: no known image signature in the first bytes"

    /// Serves `refusal` at /catalog/bad, checks the exact refusal, then a normal image on the same route.
    func expectRefused(_ refusal: Refusal) async throws {
        let harness = try PipelineHarness()
        defer { Task { await harness.close() } }
        let url = "http://origin.test/catalog/bad"
        harness.origin.setReply(.init(fields: ["Cache-Control": "public, max-age=600", "Content-Type": refusal.contentType],
                                      body: try refusal.bytes()), for: url)
        for _ in 0..<2 {
            let response = await harness.get("/catalog/bad")
            #expect(response.status == 502)
            #expect(response.fields["Content-Type"] == "application/problem+json")
            #expect(response.fields["X-Content-Type-Options"] == "nosniff")
            #expect(response.fields["Cache-Control"] == "no-store")
            #expect(PipelineSupport.problemCode(response) == refusal.code)
            #expect(PipelineSupport.problemMembers(response)?["detail"] as? String == refusal.detail)
            #expect(response.outcome.storage == .notStored)
            #expect(response.outcome.reason == refusal.code)
        }
        #expect(harness.origin.callCount(for: url) == 2)
        #expect(PipelineSupport.events(try harness.auditRecords()) == ["skip:\(refusal.code)", "skip:\(refusal.code)"])
        #expect(harness.responseFilesUnderState().isEmpty)

        let jpeg = try Fixtures.bytes("catalog/horse-d29d871c.jpg")
        harness.origin.setReply(.init(fields: ["Cache-Control": "max-age=600"], body: jpeg), for: "http://origin.test/catalog/ok.jpg")
        let normal = await harness.get("/catalog/ok.jpg")
        #expect(normal.status == 200)
        #expect(normal.body == jpeg)
        #expect(normal.fields["Cache-Status"] == "mediactl; fwd=uri-miss; fwd-status=200; ttl=600; stored; detail=disk")
    }

    // MARK: C15 Decompression bombs / pixel floods

    @Test(arguments: [
        Refusal(fixture: "hostile/bomb-60000x60000.png", contentType: "image/png", code: "over-pixel-limit",
                detail: "the origin's answer was refused: PNG IHDR is 60000x60000 = 3600000000 pixels, over the limit of 50000000"),
        Refusal(fixture: "hostile/bomb-12000x12000-valid.png", contentType: "image/png", code: "over-pixel-limit",
                detail: "the origin's answer was refused: PNG IHDR is 12000x12000 = 144000000 pixels, over the limit of 50000000"),
    ])
    func c15PixelFloodIsRefusedFromTheHeader(refusal: Refusal) async throws {
        try await expectRefused(refusal)
    }

    // MARK: C16 Active content as an image

    @Test(arguments: [
        Refusal(fixture: "hostile/script.svg", contentType: "image/svg+xml", code: "not-an-image", detail: HostileContentPipelineTests.notAnImage),
        Refusal(fixture: "hostile/html-named.jpg", contentType: "image/jpeg", code: "not-an-image", detail: HostileContentPipelineTests.notAnImage),
        Refusal(body: Array("<!doctype html><html><script>alert(1)</script></html>".utf8), contentType: "text/html",
                code: "not-an-image", detail: HostileContentPipelineTests.notAnImage),
        Refusal(fixture: "hostile/jpeg-with-html-tail.jpg", contentType: "image/jpeg", code: "trailing-data",
                detail: "the origin's answer was refused: JPEG: 38 bytes follow the end of the image at offset 2936"),
    ])
    func c16ActiveContentIsRefusedBeforeStorage(refusal: Refusal) async throws {
        try await expectRefused(refusal)
    }

    @Test func c16ServedContentTypeComesFromSniffingNotTheOrigin() async throws {
        let harness = try PipelineHarness()
        defer { Task { await harness.close() } }
        let jpeg = try Fixtures.bytes("catalog/horse-d29d871c.jpg")
        let png = try Fixtures.bytes("catalog/chelsea.png")
        harness.origin.setReply(.init(fields: ["Cache-Control": "max-age=600", "Content-Type": "text/plain"], body: jpeg),
                                for: "http://origin.test/avatars/a.jpg")
        harness.origin.setReply(.init(fields: ["Cache-Control": "max-age=600", "Content-Type": "image/jpeg"], body: png),
                                for: "http://origin.test/avatars/b.jpg")
        for (path, type, body) in [("/avatars/a.jpg", "image/jpeg", jpeg), ("/avatars/b.jpg", "image/png", png)] {
            let miss = await harness.get(path)
            harness.clock.advance(1)
            let hit = await harness.get(path)
            for response in [miss, hit] {
                #expect(response.status == 200)
                #expect(response.body == body)
                #expect(response.fields["Content-Type"] == type)
                #expect(response.fields.values(for: "Content-Type").count == 1)
                #expect(response.fields["X-Content-Type-Options"] == "nosniff")
                #expect(response.fields["Content-Length"] == String(body.count))
            }
            #expect(hit.fields["Cache-Status"]?.hasPrefix("mediactl; hit") == true)
        }
    }

    @Test func formatOutsideTheTiersContentTypesIsRefusedNotServed() async throws {
        let policy = PipelineHarness.defaultPolicy.replacingOccurrences(
            of: "\"contentTypes\": [\"image/jpeg\", \"image/png\", \"image/gif\", \"image/webp\", \"image/avif\"]",
            with: "\"contentTypes\": [\"image/jpeg\"]")
        let harness = try PipelineHarness(policyJSON: policy)
        defer { Task { await harness.close() } }
        #expect(harness.service.policies.tiers["public"]?.contentTypes == ["image/jpeg"])
        harness.origin.setReply(.init(fields: ["Cache-Control": "max-age=600", "Content-Type": "image/jpeg"],
                                      body: try Fixtures.bytes("catalog/chelsea.png")), for: "http://origin.test/catalog/c.jpg")
        let response = await harness.get("/catalog/c.jpg")
        #expect(response.status == 502)
        #expect(PipelineSupport.problemCode(response) == "not-an-image")
        #expect(PipelineSupport.problemMembers(response)?["detail"] as? String
                == "the origin's answer was refused: image/png is not one of tier public's contentTypes")
        #expect(PipelineSupport.events(try harness.auditRecords()) == ["skip:not-an-image"])
        #expect(harness.responseFilesUnderState().isEmpty)
    }

    @Test func c16NosniffOnEveryKindOfAnswer() async throws {
        let harness = try PipelineHarness()
        defer { Task { await harness.close() } }
        harness.origin.setReply(.init(fields: ["Cache-Control": "max-age=600"], body: try Fixtures.bytes("catalog/spinner.gif")),
                                for: "http://origin.test/one-time/s.gif")
        let responses = [
            await harness.get("/one-time/s.gif"),
            await harness.get("/catalog/missing.jpg"),
            await harness.get("/nowhere/x.jpg"),
            await harness.get("/receipts/x.jpg"),
            await harness.get("/_mediactl/health"),
        ]
        #expect(responses.map(\.status) == [200, 404, 404, 401, 200])
        #expect(responses[0].fields["Content-Type"] == "image/gif")
        #expect(responses[0].fields["Cache-Control"] == "no-store")
        for response in responses { #expect(response.fields["X-Content-Type-Options"] == "nosniff") }
    }

    // MARK: C17 Truncated / corrupt images

    @Test(arguments: [
        Refusal(fixture: "hostile/truncated.jpg", contentType: "image/jpeg", code: "truncated-image",
                detail: "the origin's answer was refused: JPEG: ends at byte 6000 inside entropy-coded data, before EOI"),
        Refusal(fixture: "hostile/bad-crc.png", contentType: "image/png", code: "corrupt-image",
                detail: "the origin's answer was refused: PNG: IHDR CRC mismatch (stored 0x2C103F31, computed 0xD3103F31)"),
        Refusal(fixture: "hostile/empty.jpg", contentType: "image/jpeg", code: "empty-body", detail: "the origin's answer was refused: the body has 0 bytes"),
    ])
    func c17CorruptImagesAreRefusedAndNeverStored(refusal: Refusal) async throws {
        try await expectRefused(refusal)
    }
}
