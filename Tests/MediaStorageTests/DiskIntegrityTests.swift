import Foundation
import MediaCore
import MediaCrypto
import Testing

@testable import MediaStorage

/// Disk files are keyed with the install's integrity key (format version 2): a body swapped by someone without the
/// key, a version 1 file or another install's file is corrupt — removed, reported, never served.
@Suite struct DiskIntegrityTests {
    private func open(_ folder: TemporaryFolder, _ recorder: EventRecorder, key: IntegrityKey = Sample.integrityKey) throws -> DiskStore {
        try DiskStore(directory: folder.path + "/disk", configuration: .init(synchronizesWrites: false), integrityKey: key,
                      onEvent: recorder.handler)
    }

    /// Stores `key` with a 64-byte body; returns the file path and its size.
    private func plant(_ folder: TemporaryFolder, _ key: String) throws -> (path: String, size: Int) {
        let store = try open(folder, EventRecorder())
        try store.store(Sample.entry(key, body: Sample.bytes(64)), for: key)
        let path = store.filePath(for: key)
        return (path, Sample.read(path).count)
    }

    private func corrupt(_ key: String, _ size: Int, _ reason: StorageEvent.Reason, tier: String? = nil,
                         route: String? = nil) -> StorageEvent {
        StorageEvent(kind: .corrupt, storageClass: .disk, keyDigest: KeyDigest.hex(of: key), bytes: size,
                     tier: tier, route: route, partition: nil, reason: reason)
    }

    /// The file, byte for byte, as docs/storage.md specifies it, recomputed here with the one-shot HMAC.
    @Test func theFileIsTheDocumentedFormat() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = try open(folder, EventRecorder())
        let body = Array("mediactl".utf8)
        try store.store(Sample.entry("k", body: body), for: "k")
        let file = Sample.read(store.filePath(for: "k"))
        let secret = SymmetricKey(bytes: Sample.integritySecret)
        func derived(_ label: String) throws -> SymmetricKey {
            SymmetricKey(bytes: try HMACSHA256.authenticationCode(for: label, key: secret))
        }
        var metadata = Sample.entry("k", body: body).metadata
        metadata.storageClass = .disk
        let encoded = MetadataCoding.encode(metadata)
        let header: [UInt8] = Array("MCSD".utf8) + [0, 2, 0, 0]
            + [0, 0, UInt8(encoded.count >> 8), UInt8(encoded.count & 0xff)] + [0, 0, 0, 0, 0, 0, 0, 8]
        let headerTag = try HMACSHA256.authenticationCode(for: header + encoded, key: derived("mediactl-disk-header-v2"))
        let bodyDigest = try HMACSHA256.authenticationCode(for: body, key: derived("mediactl-body-digest-v1"))
        #expect(Hex.encode(bodyDigest) == "c80635314d87a019e6777ef7d5d364a8b6f151c2ef295c4a303f54aade583912")
        let prefix = header + headerTag + encoded
        let fileTag = try HMACSHA256.authenticationCode(for: prefix + bodyDigest, key: derived("mediactl-disk-file-v2"))
        #expect(file == prefix + body + fileTag)
        #expect(file.count == 84 + encoded.count + body.count)
    }

    /// An entry read back keeps the digest its read verified; a new metadata keeps it, a new body does not.
    @Test func anEntryReadBackKnowsItsBodyDigest() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let recorder = EventRecorder()
        try open(folder, recorder).store(Sample.entry("k", body: Array("mediactl".utf8)), for: "k")
        var read = try #require(try open(folder, recorder).entry(for: "k"))
        let expected = "c80635314d87a019e6777ef7d5d364a8b6f151c2ef295c4a303f54aade583912"
        #expect(Hex.encode(read.bodyDigest(under: Sample.integrityKey)) == expected)
        read.metadata.expiresAt = 9_000
        #expect(Hex.encode(read.bodyDigest(under: Sample.integrityKey)) == expected)
        read.body = Array("other".utf8)
        #expect(read.bodyDigest(under: Sample.integrityKey) == Sample.integrityKey.bodyDigest(of: Array("other".utf8)))
        let other = try IntegrityKey(secret: SymmetricKey(bytes: [UInt8](repeating: 1, count: 32)))
        #expect(read.bodyDigest(under: other) == other.bodyDigest(of: Array("other".utf8)))
        #expect(recorder.events.isEmpty)
    }

    /// Body replaced, both checksums recomputed the unkeyed way: the header tag fails at the scan.
    @Test func aBodyForgedWithUnkeyedChecksumsIsCorruptAtTheScan() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let (path, _) = try plant(folder, "k")
        let forged = DiskForgery.unkeyed(Sample.read(path), body: Array("forged".utf8))
        Sample.write(forged, to: path)
        let recorder = EventRecorder()
        let store = try open(folder, recorder)
        #expect(recorder.events == [corrupt("k", forged.count, .badChecksum)])
        #expect(store.totals == StorageTotals(bytes: 0, count: 0))
        #expect(store.entry(for: "k") == nil)
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    /// Same length, header untouched, the file tag recomputed unkeyed: indexed at the scan (the header tag holds),
    /// refused on the one read that verifies the file tag, removed, and the next read is a miss.
    @Test func aSameLengthBodyForgedBehindTheHeaderIsCorruptOnRead() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let (path, size) = try plant(folder, "k")
        Sample.write(DiskForgery.unkeyedFileTagOnly(Sample.read(path), body: Sample.bytes(64, seed: 99)), to: path)
        let recorder = EventRecorder()
        let store = try open(folder, recorder)
        #expect(recorder.events.isEmpty)
        #expect(store.totals.count == 1)
        #expect(store.entry(for: "k") == nil)
        #expect(recorder.events == [corrupt("k", size, .badChecksum, tier: "public", route: "catalog")])
        #expect(!FileManager.default.fileExists(atPath: path))
        #expect(store.entry(for: "k") == nil)
        #expect(recorder.events.count == 1)
    }

    /// A version 1 file (unkeyed, as earlier releases wrote it): refused at the scan as `foreign-version`.
    @Test func aVersionOneFileIsDroppedAtTheScan() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let (path, size) = try plant(folder, "k")
        Sample.write(DiskForgery.versionOne(Sample.read(path)), to: path)
        let recorder = EventRecorder()
        let store = try open(folder, recorder)
        #expect(recorder.events == [corrupt("k", size, .foreignVersion)])
        #expect(store.totals.count == 0)
        #expect(folder.files(under: "disk").isEmpty)
    }

    /// Files of another install (another key): every one refused at the scan.
    @Test func anotherInstallsFilesAreCorrupt() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let (_, size) = try plant(folder, "a")
        let recorder = EventRecorder()
        let other = try IntegrityKey(secret: SymmetricKey(bytes: [UInt8](repeating: 0xa5, count: 32)))
        let store = try open(folder, recorder, key: other)
        #expect(recorder.events == [corrupt("a", size, .badChecksum)])
        #expect(store.totals.count == 0)
    }

    @Test func anIntegrityKeyIs32Bytes() throws {
        #expect(throws: StorageError(.invalidConfiguration, "an integrity key is 32 bytes, got 16")) {
            try IntegrityKey(secret: SymmetricKey(bytes: [UInt8](repeating: 1, count: 16)))
        }
        #expect("\(Sample.integrityKey)" == "IntegrityKey(<redacted>)")
        #expect(try IntegrityKey.random().bodyDigest(of: [1]) != Sample.integrityKey.bodyDigest(of: [1]))
    }
}
