import Foundation
import HTTPCaching
@testable import MediaService
import MediaTestSupport
import Testing

/// Hardening item 3: a large stored image is read from its file once and every hit shares that one buffer; a slow
/// reader no longer pins a copy of its own.
@Suite struct LargeObjectSharingTests {
    static func address(_ bytes: [UInt8]) -> UInt? {
        bytes.withUnsafeBufferPointer { $0.baseAddress.map { UInt(bitPattern: $0) } }
    }

    @Test func hitsOfA9MiBDiskObjectShareOneBufferAfterARestart() async throws {
        let body = PipelineSupport.markedPNG("MARK-" + String(repeating: "x", count: 9 << 20))
        let url = "http://origin.test/catalog/large.png"
        let first = try PipelineHarness()
        first.origin.setReply(.init(fields: ["Cache-Control": "max-age=600"], body: body), for: url)
        #expect(await first.get("/catalog/large.png").status == 200)
        first.service.flushWrites()
        await first.service.stop()
        // A new process: nothing hot; the first hit reads the file, the next ones share its copy.
        let harness = try PipelineHarness(stateDirectory: first.stateDirectory)
        defer { Task { await harness.close() } }
        let hits = [await harness.get("/catalog/large.png"), await harness.get("/catalog/large.png"),
                    await harness.get("/catalog/large.png")]
        #expect(hits.map(\.status) == [200, 200, 200])
        #expect(hits.allSatisfy { $0.body == body })
        #expect(hits.map { $0.fields["Cache-Status"] ?? "" }.allSatisfy { $0.hasPrefix("mediactl; hit") })
        let addresses = Set(hits.map { Self.address($0.body) })
        #expect(addresses.count == 1)
        // A range of it is a part of the same buffer, not a copy (security test F1: 8.8 MB per ranged reader).
        let ranged = await harness.get("/catalog/large.png", [("Range", "bytes=1-")])
        #expect(ranged.status == 206)
        #expect(ranged.content.range == 1..<body.count)
        #expect(Self.address(ranged.content.storage) == addresses.first!)
        #expect(ranged.bodyCount == body.count - 1)
        #expect(ranged.body == Array(body.dropFirst()))
        #expect(harness.origin.totalCallCount == 0)
    }
}
