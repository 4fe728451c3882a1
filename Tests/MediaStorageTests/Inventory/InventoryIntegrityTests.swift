import Foundation
import MediaCore
import MediaCrypto
import Testing

@testable import MediaStorage

/// What the read-only inventory makes of disk files under the integrity key: the body's keyed digest of every file
/// with the disk layout (verified or not), tags checked, and without a key nothing trusted.
@Suite struct InventoryIntegrityTests {
    typealias Planted = StateInventoryTests.Planted

    private func item(_ planted: Planted, key: IntegrityKey?) throws -> InventoryItem {
        try #require(try StateInventory.scan(stateDirectory: planted.folder.path, integrityKey: key).items.first {
            $0.folder == .disk
        })
    }

    /// A body replaced and both checksums recomputed the unkeyed way (version 1's SHA-256): the header tag fails,
    /// so the metadata is not trusted (no tier, no route), and the digest is the new body's.
    @Test func aForgedBodyIsDigestedAndItsHeaderRefused() throws {
        let planted = try Planted()
        defer { planted.folder.remove() }
        let path = planted.folder.path + "/" + planted.relative("disk", "public", planted.diskHex)
        let forged = DiskForgery.unkeyed(Sample.read(path), body: Array("forged body".utf8))
        Sample.write(forged, to: path)
        let found = try item(planted, key: Sample.integrityKey)
        #expect(found.defect == InventoryDefect(.notADiskEntry, "bad-checksum"))
        #expect(found.tier == nil)
        #expect(found.route == nil)
        #expect(found.bodyBytes == 11)
        #expect(found.bodyDigest == Hex.encode(Sample.integrityKey.bodyDigest(of: Array("forged body".utf8))))
        #expect(found.bytes == forged.count)
    }

    /// Same length, header left alone, only the file tag recomputed unkeyed: the file tag fails.
    @Test func aSameLengthBodyWithAnUnkeyedFileTagIsRefused() throws {
        let planted = try Planted()
        defer { planted.folder.remove() }
        let path = planted.folder.path + "/" + planted.relative("disk", "public", planted.diskHex)
        let forged = DiskForgery.unkeyedFileTagOnly(Sample.read(path), body: Sample.bytes(100, seed: 9))
        Sample.write(forged, to: path)
        let found = try item(planted, key: Sample.integrityKey)
        #expect(found.defect == InventoryDefect(.notADiskEntry, "bad-checksum"))
        #expect(found.tier == nil)
        #expect(found.bodyBytes == 100)
        #expect(found.bodyDigest == Hex.encode(Sample.integrityKey.bodyDigest(of: Sample.bytes(100, seed: 9))))
    }

    /// A version 1 file (the unkeyed format, written whole by hand): `foreign-version`, its body still digested.
    @Test func aVersionOneFileIsForeignAndDigested() throws {
        let planted = try Planted()
        defer { planted.folder.remove() }
        let path = planted.folder.path + "/" + planted.relative("disk", "public", planted.diskHex)
        Sample.write(DiskForgery.versionOne(Sample.read(path)), to: path)
        let found = try item(planted, key: Sample.integrityKey)
        #expect(found.defect == InventoryDefect(.notADiskEntry, "foreign-version"))
        #expect(found.bodyBytes == 100)
        #expect(found.bodyDigest == StateInventoryTests.bodyDigestOf100Bytes)
    }

    /// Another install's key: the genuine file does not verify here.
    @Test func anotherKeysFileIsRefusedButDigestedUnderThisKey() throws {
        let planted = try Planted()
        defer { planted.folder.remove() }
        let other = try IntegrityKey(secret: SymmetricKey(bytes: [UInt8](repeating: 0xa5, count: 32)))
        let found = try item(planted, key: other)
        #expect(found.defect == InventoryDefect(.notADiskEntry, "bad-checksum"))
        #expect(found.bodyDigest == Hex.encode(other.bodyDigest(of: Sample.bytes(100))))
        #expect(found.bodyDigest != StateInventoryTests.bodyDigestOf100Bytes)
    }

    /// Without a key: the length only, no tier, no digest, `unverified`.
    @Test func withoutAKeyNothingIsTrusted() throws {
        let planted = try Planted()
        defer { planted.folder.remove() }
        let found = try item(planted, key: nil)
        #expect(found.defect == InventoryDefect(.unverified, "no integrity key to check its tags"))
        #expect(found.tier == nil)
        #expect(found.route == nil)
        #expect(found.bodyBytes == 100)
        #expect(found.bodyDigest == nil)
    }

    /// A body larger than one read (1 MiB) is digested across the chunks.
    @Test func aLargeBodyIsDigestedInChunks() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let body = Sample.bytes((1 << 20) * 2 + 123)
        let store = try DiskStore(directory: folder.path + "/disk/public", configuration: .init(synchronizesWrites: false),
                                  integrityKey: Sample.integrityKey)
        try store.store(Sample.entry("big", body: body), for: "big")
        let found = try #require(try StateInventory.scan(stateDirectory: folder.path, integrityKey: Sample.integrityKey).items.first)
        #expect(found.defect == nil)
        #expect(found.tier == "public")
        #expect(found.bodyBytes == body.count)
        #expect(found.bodyDigest == Hex.encode(Sample.integrityKey.bodyDigest(of: body)))
    }
}
