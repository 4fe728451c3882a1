import Foundation
import MediaCrypto
@testable import MediaStorage
import Testing

/// ``EntryMetadata/tags``: kept in a file store's index across a restart (a purge by tag needs no head), encoded after
/// the lifetime, absent for metadata written without them; ``IntegrityKey/tagDigest(_:)`` is keyed and stable.
@Suite struct EntryTagsTests {
    @Test func tagsSurviveARestartInTheIndex() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        var entry = Sample.entry("https://o/catalog/a.jpg", body: Sample.bytes(1_000))
        entry.metadata.lifetime = 3_600
        entry.metadata.tags = ["t1", "t2"]
        do {
            let store = try DiskStore(directory: folder.path + "/disk", integrityKey: Sample.integrityKey)
            try store.store(entry, for: "https://o/catalog/a.jpg")
            store.flush()
        }
        let reopened = try DiskStore(directory: folder.path + "/disk", integrityKey: Sample.integrityKey)
        #expect(reopened.inventory().map(\.tags) == [["t1", "t2"]])
        #expect(reopened.removeAll { $0.tags.contains("t2") }.map(\.key) == ["https://o/catalog/a.jpg"])
    }

    @Test func tagsAreEncodedAfterTheLifetime() throws {
        var metadata = Sample.entry("https://o/catalog/a.jpg", body: []).metadata
        metadata.lifetime = 48
        let timed = MetadataCoding.encode(metadata)
        metadata.tags = ["ab"]
        let tagged = MetadataCoding.encode(metadata)
        // u32 count ‖ u32 length ‖ "ab"
        #expect(Array(tagged.suffix(10)) == [0, 0, 0, 1, 0, 0, 0, 2, 0x61, 0x62])
        #expect(tagged.count == timed.count + 10)
        #expect(tagged.withUnsafeBytes { MetadataCoding.decode($0, bodyByteCount: 0) } == metadata)
        #expect(timed.withUnsafeBytes { MetadataCoding.decode($0, bodyByteCount: 0) }?.tags == [])
        #expect(Array(tagged.dropLast(1)).withUnsafeBytes { MetadataCoding.decode($0, bodyByteCount: 0) } == nil)
    }

    @Test func theTagDigestIsKeyedAndStable() throws {
        let key = Sample.integrityKey
        #expect(key.tagDigest("product-42") == key.tagDigest("product-42"))
        #expect(key.tagDigest("product-42") != key.tagDigest("product-4"))
        #expect(key.tagDigest("product-42").utf8.count == 64)
        #expect(try IntegrityKey.random().tagDigest("product-42") != key.tagDigest("product-42"))
        #expect(!key.tagDigest("product-42").contains("product"))
    }
}
