import Foundation
import MediaStorage
import MediaTestSupport
import Testing
@testable import MediaService

/// The variants index holds exactly the store keys that are stored: evicted entries leave it when the
/// store evicts them, not when their URL happens to be requested again (unique URLs would otherwise
/// grow it without bound: ≈ 0.5 KB per origin fetch in `wrk-vs-nginx.sh`'s miss runs).
@Suite struct StoredResponseIndexEvictionTests {
    @Test func evictedKeysLeaveTheIndexAtOnce() async throws {
        let harness = try PipelineHarness(policyJSON: AuditInvariantTests.tightPolicy)
        defer { Task { await harness.close() } }
        for index in 0..<40 {
            let body = PipelineSupport.markedPNG(String(repeating: "mem-\(index)-", count: 9000 / 7))
            harness.origin.setReply(.init(fields: ["Cache-Control": "max-age=600"], body: body),
                                    for: "http://origin.test/mem/\(index).png")
            let response = await harness.get("/mem/\(index).png")
            #expect(response.outcome.storage == .stored(.memory))
        }
        let runtime = try #require(harness.service.runtimes["mem"])
        let stored = Set(runtime.memory.inventory().map(\.key))
        let evictions = try harness.auditRecords().filter { $0.entry.event.rawValue == "evict" }.count
        #expect(stored.count + evictions == 40)
        #expect(stored.count < 40)
        #expect(runtime.responseIndex.count == stored.count)
        let indexed = runtime.responseIndex.groups.withLock { Set($0.values.flatMap { $0 }) }
        #expect(indexed == stored)
    }

    @Test func sweptKeysLeaveTheIndex() async throws {
        let harness = try PipelineHarness(policyJSON: AuditInvariantTests.tightPolicy)
        defer { Task { await harness.close() } }
        for mount in ["catalog", "mem"] {
            let body = PipelineSupport.markedPNG("\(mount)-swept")
            harness.origin.setReply(.init(fields: ["Cache-Control": "max-age=60"], body: body),
                                    for: "http://origin.test/\(mount)/swept.png")
            _ = await harness.get("/\(mount)/swept.png")
        }
        let disk = try #require(harness.service.runtimes["public"])
        let memory = try #require(harness.service.runtimes["mem"])
        #expect(disk.responseIndex.count == 1)
        #expect(memory.responseIndex.count == 1)
        harness.clock.advance(60 + 3_600)  // kept for ttl + maxTTL (the revalidation window)
        harness.service.sweep()
        #expect(disk.responseIndex.count == 0)
        #expect(memory.responseIndex.count == 0)
        #expect(PipelineSupport.events(try harness.auditRecords()).filter { $0.hasPrefix("expire") }.count == 2)
    }

    @Test func storeEventsCarryTheKeyButNeverPrintOrCompareIt() {
        let withKey = StorageEvent(kind: .evict, storageClass: .memory, keyDigest: "ab", bytes: 1, tier: "t",
                                   route: "r", partition: nil, reason: .byteLimit,
                                   storeKey: "GET http://origin.test/private/receipt.jpg")
        let withoutKey = StorageEvent(kind: .evict, storageClass: .memory, keyDigest: "ab", bytes: 1, tier: "t",
                                      route: "r", partition: nil, reason: .byteLimit)
        #expect(withKey == withoutKey)
        #expect(withKey.hashValue == withoutKey.hashValue)
        #expect(withKey.description == "evict memory ab bytes=1 tier=t partition=- reason=byte-limit")
    }
}
