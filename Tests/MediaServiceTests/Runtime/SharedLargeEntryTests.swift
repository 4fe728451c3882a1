import HTTPCaching
import MediaStorage
import MediaTestSupport
import Testing

@testable import MediaService

/// Hardening item 3 beyond the hot copies: a stored image too large for a hot copy is read from its file once
/// and shared by every response that is still being written; once nobody holds it, it is freed. A purge or a new
/// stored response never leaves the old body shared.
@Suite struct SharedLargeEntryTests {
    /// The default tiers with 64 KiB of memory each: 48 KiB of hot copies, at most 12 KiB per copy.
    static let smallMemoryPolicy = PipelineHarness.defaultPolicy
        .replacingOccurrences(of: #""storage": "disk", "cache": "shared", "credentials": "strip","#,
                              with: #""storage": "disk", "cache": "shared", "credentials": "strip", "memoryBytes": 65536,"#)
        .replacingOccurrences(of: #""storage": "encrypted-disk","#, with: #""storage": "encrypted-disk", "memoryBytes": 65536,"#)
    /// A 40,000-byte-marker PNG: larger than one hot copy may be.
    static let big = PipelineSupport.markedPNG(String(repeating: "L", count: 40_000))

    @Test(arguments: [("/catalog/big.png", [] as [(String, String)]), ("/receipts/big.png", [("Authorization", "Bearer t1")])])
    func concurrentReadersShareOneBufferUntilTheLastLetsGo(target: String, fields: [(String, String)]) async throws {
        let harness = try PipelineHarness(policyJSON: Self.smallMemoryPolicy)
        defer { Task { await harness.close() } }
        harness.origin.setReply(.init(fields: ["Cache-Control": "max-age=600"], body: Self.big), for: "http://origin.test" + target)
        let tier = target.hasPrefix("/catalog/") ? "public" : "private"
        let runtime = try #require(harness.service.runtimes[tier])
        let miss = await harness.get(target, fields)
        #expect(miss.body == Self.big)
        #expect(miss.content.owner == nil)
        var first: ServiceResponse? = await harness.get(target, fields)
        var second: ServiceResponse? = await harness.get(target, fields)
        #expect(first?.fields["Cache-Status"] == "mediactl; hit; ttl=600")
        #expect(second?.body == Self.big)
        let firstOwner = first?.content.owner.map { ObjectIdentifier($0) }
        #expect(firstOwner != nil)
        #expect(second?.content.owner.map { ObjectIdentifier($0) } == firstOwner)
        #expect(runtime.hot?.inventory().isEmpty == true)
        #expect(runtime.copies?.shared.count == 1)
        first = nil
        second = nil
        runtime.copies?.sweep(now: harness.clock.now)
        #expect(runtime.copies?.shared.count == 0)
        // Read from the file again, and shared again.
        let third = await harness.get(target, fields)
        #expect(third.body == Self.big)
        #expect(third.content.owner != nil)
        #expect(runtime.copies?.shared.count == 1)
        #expect(harness.origin.totalCallCount == 1)
    }

    @Test func aPurgeNeverLeavesTheBodySharedWhileAReaderHoldsIt() async throws {
        let harness = try PipelineHarness(policyJSON: Self.smallMemoryPolicy)
        defer { Task { await harness.close() } }
        harness.origin.setReply(.init(fields: ["Cache-Control": "max-age=600"], body: Self.big), for: "http://origin.test/catalog/big.png")
        _ = await harness.get("/catalog/big.png")
        let held = await harness.get("/catalog/big.png")
        #expect(held.content.owner != nil)
        #expect(try harness.service.purge(.route("catalog")) == 1)
        let after = await harness.get("/catalog/big.png")
        #expect(after.fields["Cache-Status"] == "mediactl; fwd=uri-miss; fwd-status=200; ttl=600; stored; detail=disk")
        #expect(after.content.owner == nil)
        #expect(harness.origin.totalCallCount == 2)
        #expect(held.body == Self.big)
    }
}

/// ``FileCopies``: a copy made from a file read that a removal or replacement overtook is not kept.
@Suite struct FileCopiesTests {
    static func entry(_ marker: String, bytes: Int) -> StoredEntry {
        StoredEntry(metadata: EntryMetadata(key: "k", tier: "public", route: "catalog", requestTime: 1, responseTime: 1,
                                            expiresAt: 1_000),
                    body: Array(repeating: UInt8(ascii: "a"), count: bytes) + Array(marker.utf8))
    }

    @Test func smallEntriesBecomeHotCopiesAndLargeOnesAreShared() throws {
        let copies = try FileCopies(hotBytes: 4_000)
        let small = Self.entry("s", bytes: 100)
        #expect(copies.read("s", from: { small }) == small)
        #expect(copies.hot.inventory().count == 1)
        #expect(copies.entry(for: "s")?.body == small.body)
        let large = Self.entry("l", bytes: 2_000)
        #expect(copies.read("l", from: { large }) == large)
        #expect(copies.entry(for: "l").map { ObjectIdentifier($0.owner) } == ObjectIdentifier(large.owner))
        #expect(copies.shared.count == 1)
    }

    @Test(arguments: ["remove", "removeAll", "replace"])
    func aRemovalDuringTheReadKeepsNoCopy(removal: String) throws {
        let copies = try FileCopies(hotBytes: 4_000)
        for bytes in [100, 2_000] {
            let old = Self.entry("old", bytes: bytes)
            let new = Self.entry("new", bytes: bytes)
            let read = copies.read("k") {
                switch removal {
                case "remove": copies.remove("k")
                case "removeAll": copies.removeAll(where: { _ in true })
                default: copies.replace("k", with: new)
                }
                return old
            }
            #expect(read == old)
            #expect(copies.entry(for: "k") == (removal == "replace" ? new : nil), "\(removal), \(bytes) bytes")
            copies.remove("k")
        }
    }
}
