import Foundation
import MediaCrypto
@testable import MediaStorage
import Testing

/// ``EntryMetadata/lifetime``: kept in a file store's index across a restart, encoded as a trailing f64, and absent
/// (`nil`) for metadata written without it.
@Suite struct EntryLifetimeTests {
    @Test func theLifetimeSurvivesARestartInTheIndex() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        var entry = Sample.entry("https://o/catalog/a.jpg", body: Sample.bytes(1_000))
        entry.metadata.lifetime = 3_600
        do {
            let store = try DiskStore(directory: folder.path + "/disk", integrityKey: Sample.integrityKey)
            try store.store(entry, for: "https://o/catalog/a.jpg")
            store.flush()
        }
        let reopened = try DiskStore(directory: folder.path + "/disk", integrityKey: Sample.integrityKey)
        let removed = reopened.removeAll { $0.lifetime == 3_600 }
        #expect(removed.map(\.key) == ["https://o/catalog/a.jpg"])
        #expect(removed.map(\.lifetime) == [3_600])
    }

    @Test func metadataWithoutALifetimeDecodesAsBefore() throws {
        let entry = Sample.entry("https://o/catalog/a.jpg", body: [])
        let plain = MetadataCoding.encode(entry.metadata)
        var timed = entry.metadata
        timed.lifetime = 48
        let withLifetime = MetadataCoding.encode(timed)
        #expect(withLifetime.count == plain.count + 8)
        #expect(Array(withLifetime.suffix(8)) == [0x40, 0x48, 0, 0, 0, 0, 0, 0])
        let decodedPlain = plain.withUnsafeBytes { MetadataCoding.decode($0, bodyByteCount: 0) }
        #expect(decodedPlain?.lifetime == nil)
        #expect(decodedPlain == entry.metadata)
        let decodedTimed = withLifetime.withUnsafeBytes { MetadataCoding.decode($0, bodyByteCount: 0) }
        #expect(decodedTimed == timed)
        let truncated = Array(withLifetime.dropLast(3))
        #expect(truncated.withUnsafeBytes { MetadataCoding.decode($0, bodyByteCount: 0) } == nil)
    }
}
