import HTTPCaching
import MediaService
import MediaTestSupport
import Testing

@Suite struct PipelineSmokeTests {
    /// RFC 9112 §3.2.2: an absolute-form target is served like its path; the host in it is ignored
    /// (the route's origin is fetched) and it shares the stored response of the origin-form target.
    @Test func absoluteFormTargetIsServedFromTheRoutesOrigin() async throws {
        let harness = try PipelineHarness()
        defer { Task { await harness.close() } }
        let jpeg = try Fixtures.bytes("catalog/horse-d29d871c.jpg")
        harness.origin.setReply(.init(status: 200, fields: ["Cache-Control": "public, max-age=600"], body: jpeg),
                                for: "http://origin.test/catalog/horse-d29d871c.jpg")
        let absolute = await harness.get("http://evil.example/catalog/horse-d29d871c.jpg")
        #expect(absolute.status == 200)
        #expect(absolute.body == jpeg)
        #expect(harness.origin.requests.map(\.url) == ["http://origin.test/catalog/horse-d29d871c.jpg"])
        let originForm = await harness.get("/catalog/horse-d29d871c.jpg")
        #expect(originForm.fields["Cache-Status"] == "mediactl; hit; ttl=600")
        #expect(harness.origin.totalCallCount == 1)
    }

    @Test func publicImageMissThenHit() async throws {
        let harness = try PipelineHarness()
        defer { Task { await harness.close() } }
        let jpeg = try Fixtures.bytes("catalog/horse-d29d871c.jpg")
        harness.origin.setReply(.init(status: 200, fields: ["Cache-Control": "public, max-age=31536000, immutable",
                                                            "Content-Type": "image/jpeg", "ETag": "\"h1\""], body: jpeg),
                                for: "http://origin.test/catalog/horse-d29d871c.jpg")
        let first = await harness.get("/catalog/horse-d29d871c.jpg")
        #expect(first.status == 200)
        #expect(first.body == jpeg)
        #expect(first.fields["Cache-Status"] == "mediactl; fwd=uri-miss; fwd-status=200; ttl=31536000; stored; detail=disk")
        #expect(first.fields["Content-Type"] == "image/jpeg")
        #expect(first.fields["Cache-Control"] == "public, max-age=31536000, immutable")
        #expect(first.fields["X-Content-Type-Options"] == "nosniff")
        harness.clock.advance(5)
        let second = await harness.get("/catalog/horse-d29d871c.jpg")
        #expect(second.status == 200)
        #expect(second.body == jpeg)
        #expect(second.fields["Cache-Status"] == "mediactl; hit; ttl=31535995")
        #expect(second.fields["Age"] == "5")
        #expect(harness.origin.totalCallCount == 1)
        let conditional = await harness.get("/catalog/horse-d29d871c.jpg", [("If-None-Match", "\"h1\"")])
        #expect(conditional.status == 304)
        #expect(conditional.body.isEmpty)
        let records = try harness.auditRecords()
        #expect(records.map(\.entry.event.rawValue) == ["start", "store"])
    }

    @Test func privateReceiptIsPartitionedAndSealed() async throws {
        let harness = try PipelineHarness()
        defer { Task { await harness.close() } }
        var receipt = try Fixtures.bytes("receipts/r-7732.jpg")
        let url = "http://origin.test/receipts/r-7732.jpg"
        harness.origin.setReply(.init(status: 200, fields: ["Cache-Control": "private, max-age=60"], body: receipt),
                                for: url, authorization: .value("Bearer tok-U1-secret"))
        harness.origin.setReply(.init(status: 403, body: Array("denied".utf8)), for: url, authorization: .value("Bearer tok-U2-secret"))
        let anonymous = await harness.get("/receipts/r-7732.jpg")
        #expect(anonymous.status == 401)
        #expect(anonymous.fields["WWW-Authenticate"] == "Bearer")
        let u1 = await harness.get("/receipts/r-7732.jpg", [("Authorization", "Bearer tok-U1-secret")])
        #expect(u1.status == 200)
        #expect(u1.fields["Cache-Control"] == "private, no-store")
        #expect(u1.fields["Vary"] == "Authorization")
        #expect(u1.outcome.storage == .stored(.encryptedDisk))
        let u2 = await harness.get("/receipts/r-7732.jpg", [("Authorization", "Bearer tok-U2-secret")])
        #expect(u2.status == 403)
        let again = await harness.get("/receipts/r-7732.jpg", [("Authorization", "Bearer tok-U1-secret")])
        #expect(again.fields["Cache-Status"]?.hasPrefix("mediactl; hit") == true)
        #expect(harness.origin.totalCallCount == 2)
        let marker = Array(receipt[1000..<1064])
        for file in harness.filesUnderState() {
            #expect(!file.bytes.contains(marker), "plaintext receipt bytes in \(file.path)")
            #expect(!String(decoding: file.bytes, as: UTF8.self).contains("tok-U1-secret"), "token in \(file.path)")
        }
        receipt = []
    }
}

extension Array where Element == UInt8 {
    func contains(_ needle: [UInt8]) -> Bool {
        guard !needle.isEmpty, needle.count <= count else { return false }
        return (0...(count - needle.count)).contains { self[$0..<($0 + needle.count)].elementsEqual(needle) }
    }
}
