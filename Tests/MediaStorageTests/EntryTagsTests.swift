import Foundation
import MediaCrypto
@testable import MediaStorage
import Testing

/// ``EntryMetadata/tags``: kept in a file store's index across a restart (a purge by tag needs no head), encoded after
/// the lifetime as hex, absent for metadata written without them; held as 32-byte ``CacheTagDigest`` values and counted
/// against the stores' budgets; ``IntegrityKey/tagDigest(_:)`` is keyed and stable.
@Suite struct EntryTagsTests {
    /// A digest whose 32 bytes are all `byte`.
    static func digest(_ byte: UInt8) -> CacheTagDigest { CacheTagDigest(bytes: [UInt8](repeating: byte, count: 32))! }

    /// `count` distinct digests.
    static func digests(_ count: Int) -> [CacheTagDigest] {
        (0..<count).map { index in CacheTagDigest(bytes: SHA256.hash(Array("tag-\(index)".utf8)).bytes)! }
    }

    @Test func tagsSurviveARestartInTheIndex() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        var entry = Sample.entry("https://o/catalog/a.jpg", body: Sample.bytes(1_000))
        entry.metadata.lifetime = 3_600
        entry.metadata.tags = [Self.digest(1), Self.digest(2)]
        do {
            let store = try DiskStore(directory: folder.path + "/disk", integrityKey: Sample.integrityKey)
            try store.store(entry, for: "https://o/catalog/a.jpg")
            store.flush()
        }
        let reopened = try DiskStore(directory: folder.path + "/disk", integrityKey: Sample.integrityKey)
        #expect(reopened.inventory().map(\.tags) == [[Self.digest(1), Self.digest(2)]])
        #expect(reopened.removeAll { $0.tags.contains(Self.digest(2)) }.map(\.key) == ["https://o/catalog/a.jpg"])
    }

    @Test func tagsAreEncodedAfterTheLifetimeAsHex() throws {
        var metadata = Sample.entry("https://o/catalog/a.jpg", body: []).metadata
        metadata.lifetime = 48
        let timed = MetadataCoding.encode(metadata)
        metadata.tags = [Self.digest(0xab)]
        let tagged = MetadataCoding.encode(metadata)
        // u32 count ‖ u32 length ‖ 64 hex characters
        #expect(Array(tagged.suffix(72)) == [0, 0, 0, 1, 0, 0, 0, 64] + Array(String(repeating: "ab", count: 32).utf8))
        #expect(tagged.count == timed.count + 72)
        #expect(tagged.withUnsafeBytes { MetadataCoding.decode($0, bodyByteCount: 0) } == metadata)
        #expect(timed.withUnsafeBytes { MetadataCoding.decode($0, bodyByteCount: 0) }?.tags == [])
        #expect(Array(tagged.dropLast(1)).withUnsafeBytes { MetadataCoding.decode($0, bodyByteCount: 0) } == nil)
        // A tag that is not 64 hex characters is a malformed file, not a tag.
        var bad = tagged
        bad[bad.count - 1] = UInt8(ascii: "g")
        #expect(bad.withUnsafeBytes { MetadataCoding.decode($0, bodyByteCount: 0) } == nil)
    }

    @Test func theDigestIsThirtyTwoBytesInline() {
        #expect(MemoryLayout<CacheTagDigest>.size == 32)
        let digest = Self.digest(0x5a)
        #expect(digest.hex == String(repeating: "5a", count: 32))
        #expect(CacheTagDigest(hex: digest.hex) == digest)
        #expect(digest.bytes == [UInt8](repeating: 0x5a, count: 32))
        let counting = CacheTagDigest(bytes: Array(0..<32))!
        #expect(counting.hex == "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f")
        #expect(CacheTagDigest(hex: counting.hex) == counting)
        #expect(CacheTagDigest(bytes: [1, 2, 3]) == nil)
        #expect(CacheTagDigest(hex: "ab") == nil)
        #expect(CacheTagDigest(hex: String(repeating: "zz", count: 32)) == nil)
    }

    @Test func theTagDigestIsKeyedAndStable() throws {
        let key = Sample.integrityKey
        #expect(key.tagDigest("product-42") == key.tagDigest("product-42"))
        #expect(key.tagDigest("product-42") != key.tagDigest("product-4"))
        #expect(key.tagDigest("product-42").hex.utf8.count == 64)
        #expect(try IntegrityKey.random().tagDigest("product-42") != key.tagDigest("product-42"))
        #expect(!key.tagDigest("product-42").hex.contains("product"))
    }

    /// An entry counts one index unit, plus one per started KiB of tag digests (32 tags).
    @Test func indexUnitsCountTheTags() {
        var metadata = Sample.entry("k", body: []).metadata
        for (count, units) in [(0, 1), (1, 2), (32, 2), (33, 3), (128, 5)] {
            metadata.tags = Self.digests(count)
            #expect(metadata.indexUnits == units, "\(count) tags")
        }
    }

    /// A file store's count limit bounds index units, tags included: entries with 128 tags (5 units each) fill a
    /// limit of 10 with two, evicting the least recently used (reason `count-limit`), at store time and at the scan.
    @Test func taggedEntriesFillTheFileIndexSooner() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let recorder = EventRecorder()
        let store = try DiskStore(directory: folder.path + "/disk",
                                  configuration: .init(countLimit: 10, synchronizesWrites: false),
                                  integrityKey: Sample.integrityKey, onEvent: recorder.handler)
        for key in ["k1", "k2", "k3"] {
            var entry = Sample.entry(key, body: Sample.bytes(10))
            entry.metadata.lifetime = 60
            entry.metadata.tags = Self.digests(128)
            try store.store(entry, for: key)
        }
        #expect(store.inventory().map(\.key) == ["k2", "k3"])
        #expect(recorder.events.map(\.reason) == [.countLimit])
        // Untagged entries take one unit each: k2 goes for the first, k3 for the sixth.
        for index in 0..<8 { try store.store(Sample.entry("u\(index)", body: Sample.bytes(10)), for: "u\(index)") }
        #expect(store.inventory().map(\.key) == (0..<8).map { "u\($0)" })
        #expect(recorder.events.map(\.keyDigest) == ["k1", "k2", "k3"].map { KeyDigest.hex(of: $0) })
        #expect(recorder.events.allSatisfy { $0.reason == .countLimit })
        store.flush()
        let reopened = try DiskStore(directory: folder.path + "/disk",
                                     configuration: .init(countLimit: 6, synchronizesWrites: false),
                                     integrityKey: Sample.integrityKey)
        #expect(reopened.totals.count == 6)
    }

    /// A memory store's cost counts 32 bytes per tag digest against its byte limit.
    @Test func memoryCostCountsTheTags() throws {
        var entry = Sample.entry("k", body: Sample.bytes(100))
        let untagged = MemoryStore.cost(of: entry, for: "k")
        entry.metadata.tags = Self.digests(128)
        #expect(MemoryStore.cost(of: entry, for: "k") == untagged + 4_096)
    }
}
