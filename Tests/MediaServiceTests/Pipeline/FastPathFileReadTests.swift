import HTTPCaching
import MediaTestSupport
import Testing

@testable import MediaService

/// ``MediaService/handleIfCached(_:)`` runs on an event loop: it never reads a stored file. An entry
/// whose hot copy is gone is answered by ``MediaService/handle(_:)``, which keeps a hot copy again.
@Suite struct FastPathFileReadTests {
    static func dropHotCopies(_ harness: PipelineHarness, tier: String) throws -> Int {
        let runtime = try #require(harness.service.runtimes[tier])
        let hot = try #require(runtime.hot)
        return hot.removeAll(where: { _ in true }).count
    }

    @Test func diskEntryWithoutHotCopyIsLeftToHandleThenServedFromMemory() async throws {
        let harness = try PipelineHarness()
        defer { Task { await harness.close() } }
        let jpeg = try Fixtures.bytes("catalog/horse-d29d871c.jpg")
        harness.origin.setReply(.init(fields: ["Cache-Control": "max-age=60"], body: jpeg), for: "http://origin.test/catalog/h.jpg")
        _ = await harness.get("/catalog/h.jpg")
        #expect(try Self.dropHotCopies(harness, tier: "public") == 1)
        #expect(harness.service.handleIfCached(ServiceRequest(target: "/catalog/h.jpg")) == nil)
        let viaHandle = await harness.get("/catalog/h.jpg")
        #expect(viaHandle.fields["Cache-Status"] == "mediactl; hit; ttl=60")
        #expect(viaHandle.body == jpeg)
        let fast = try #require(harness.service.handleIfCached(ServiceRequest(target: "/catalog/h.jpg")))
        #expect(fast.body == jpeg)
        #expect(fast.fields["Cache-Status"] == "mediactl; hit; ttl=60")
        #expect(harness.origin.totalCallCount == 1)
        #expect(PipelineSupport.events(try harness.auditRecords()) == ["store:tier-storage"])
    }

    @Test func sealedEntryWithoutHotCopyIsLeftToHandle() async throws {
        let harness = try PipelineHarness()
        defer { Task { await harness.close() } }
        harness.origin.setReply(.init(fields: ["Cache-Control": "max-age=60"], body: PipelineSupport.markedPNG("MARK-U1")),
                                for: "http://origin.test/receipts/r.png")
        _ = await harness.get("/receipts/r.png", [("Authorization", "Bearer t1")])
        #expect(try Self.dropHotCopies(harness, tier: "private") == 1)
        let request = ServiceRequest(target: "/receipts/r.png", fields: ["Authorization": "Bearer t1"])
        #expect(harness.service.handleIfCached(request) == nil)
        let viaHandle = await harness.get("/receipts/r.png", [("Authorization", "Bearer t1")])
        #expect(viaHandle.body == PipelineSupport.markedPNG("MARK-U1"))
        #expect(viaHandle.fields["Cache-Status"] == "mediactl; hit; ttl=60")
        #expect(harness.service.handleIfCached(request)?.body == PipelineSupport.markedPNG("MARK-U1"))
        #expect(harness.origin.totalCallCount == 1)
    }

    @Test func fileStoresAreKnownPerTier() async throws {
        let harness = try PipelineHarness()
        defer { Task { await harness.close() } }
        let runtime = try #require(harness.service.runtimes["public"])
        #expect(runtime.hasFileStores)
        let noStore = try #require(harness.service.runtimes["no-store"])
        #expect(!noStore.hasFileStores)
    }
}
