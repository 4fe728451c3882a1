import Foundation
import MediaCore
import MediaCrypto
import Testing

@testable import MediaStorage

@Suite struct StateInventoryTests {
    /// HMAC-SHA256 under the body key of ``Sample/integrityKey`` of `Sample.bytes(100)` (Python's `hmac`:
    /// `hmac.new(hmac.new(b"\x5a" * 32, b"mediactl-body-digest-v1", "sha256").digest(), body, "sha256")`).
    static let bodyDigestOf100Bytes = "5599a4593f1e0e979d6841ba59b376f40715d146b411f49964513085780b235a"

    /// A state directory with one public disk object (key `k-disk`) and one private sealed object (key `k-sealed`).
    struct Planted {
        let folder: TemporaryFolder
        let diskHex = KeyDigest.hex(of: "k-disk")
        let sealedHex = KeyDigest.hex(of: "k-sealed")

        init() throws {
            folder = try TemporaryFolder()
            let disk = try DiskStore(
                directory: folder.path + "/disk/public", configuration: .init(synchronizesWrites: false),
                integrityKey: Sample.integrityKey)
            try disk.store(Sample.entry("k-disk", body: Sample.bytes(100)), for: "k-disk")
            let sealed = try EncryptedDiskStore(
                directory: folder.path + "/sealed/private", configuration: .init(synchronizesWrites: false))
            try sealed.store(
                Sample.entry("k-sealed", body: Sample.bytes(50), tier: "private", route: "receipts"),
                for: "k-sealed")
        }

        func relative(_ folder: String, _ tier: String, _ hex: String) -> String {
            "\(folder)/\(tier)/\(hex.prefix(2))/\(hex.dropFirst(2).prefix(2))/\(hex)"
        }

        func size(_ relative: String) throws -> Int {
            let attributes = try FileManager.default.attributesOfItem(atPath: folder.path + "/" + relative)
            return (attributes[.size] as! NSNumber).intValue
        }

        func write(_ bytes: [UInt8], _ relative: String) throws {
            let path = folder.path + "/" + relative
            try FileManager.default.createDirectory(
                atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            Sample.write(bytes, to: path)
        }
    }

    @Test func wellFormedObjectsOfBothStores() throws {
        let planted = try Planted()
        defer { planted.folder.remove() }
        let diskPath = planted.relative("disk", "public", planted.diskHex)
        let sealedPath = planted.relative("sealed", "private", planted.sealedHex)
        let inventory = try StateInventory.scan(stateDirectory: planted.folder.path, integrityKey: Sample.integrityKey)
        #expect(
            inventory.items == [
                InventoryItem(
                    folder: .disk, path: diskPath, tierFolder: "public", name: planted.diskHex, kind: .object,
                    bytes: try planted.size(diskPath), tier: "public", route: "catalog", bodyBytes: 100,
                    bodyDigest: Self.bodyDigestOf100Bytes),
                InventoryItem(
                    folder: .sealed, path: sealedPath, tierFolder: "private", name: planted.sealedHex,
                    kind: .object, bytes: try planted.size(sealedPath), isSealed: true,
                    sealedKeyID: Hex.encode(Sample.read(planted.folder.path + "/" + sealedPath)[8..<16])),
            ])
        #expect(inventory.defective.isEmpty)
        #expect(inventory.temporaryFiles.isEmpty)
    }

    @Test func defectsAreNamed() throws {
        let planted = try Planted()
        defer { planted.folder.remove() }
        let plainHex = KeyDigest.hex(of: "plain")
        let plainPath = planted.relative("sealed", "private", plainHex)
        try planted.write(
            Array("\u{FF}\u{D8}\u{FF} plaintext receipt, long enough to pass the length check".utf8), plainPath)
        let shortHex = KeyDigest.hex(of: "short")
        try planted.write(Array("MCS".utf8), planted.relative("sealed", "private", shortHex))
        let versionHex = KeyDigest.hex(of: "version")
        try planted.write(
            Array("MCSE".utf8) + [0, 3, 0, 0] + [UInt8](repeating: 1, count: 40),
            planted.relative("sealed", "private", versionHex))
        let garbageHex = KeyDigest.hex(of: "garbage")
        try planted.write(Array(repeating: 0x41, count: 200), planted.relative("disk", "public", garbageHex))
        let diskBytes = Sample.read(planted.folder.path + "/" + planted.relative("disk", "public", planted.diskHex))
        let misplacedPath = "disk/public/00/00/" + planted.diskHex
        try planted.write(diskBytes, misplacedPath)
        try planted.write(Array("hello".utf8), "disk/notes.txt")
        let temporaryName = planted.diskHex + ".tmp-0123456789abcdef"
        let temporaryPath =
            "disk/public/\(planted.diskHex.prefix(2))/\(planted.diskHex.dropFirst(2).prefix(2))/" + temporaryName
        try planted.write([1, 2, 3], temporaryPath)

        let items = try StateInventory.scan(stateDirectory: planted.folder.path,
        integrityKey: Sample.integrityKey).items
        let byPath = Dictionary(uniqueKeysWithValues: items.map { ($0.path, $0) })
        #expect(items.count == 9)
        #expect(byPath[plainPath]?.defect == InventoryDefect(.notSealed, "no MCSE magic"))
        #expect(byPath[plainPath]?.isSealed == false)
        #expect(
            byPath[planted.relative("sealed", "private", shortHex)]?.defect
                == InventoryDefect(.notSealed, "3 bytes, shorter than the 48 of an empty sealed entry"))
        #expect(
            byPath[planted.relative("sealed", "private", versionHex)]?.defect
                == InventoryDefect(.notSealed, "version 3 or reserved bytes are not those of version 1 or 2"))
        #expect(
            byPath[planted.relative("disk", "public", garbageHex)]?.defect
                == InventoryDefect(.notADiskEntry, "bad-magic"))
        #expect(byPath[planted.relative("disk", "public", garbageHex)]?.tier == nil)
        let misplaced = byPath[misplacedPath]
        #expect(misplaced?.tier == "public")
        #expect(
            misplaced?.defect
                == InventoryDefect(
                    .misplaced,
                    "expected disk/<tier>/\(planted.diskHex.prefix(2))/\(planted.diskHex.dropFirst(2).prefix(2))/\(planted.diskHex)"
                ))
        #expect(
            byPath["disk/notes.txt"]
                == InventoryItem(
                    folder: .disk, path: "disk/notes.txt", tierFolder: nil, name: "notes.txt", kind: .object, bytes: 5,
                    defect: InventoryDefect(.notADiskEntry, "truncated")))
        #expect(
            byPath[temporaryPath]
                == InventoryItem(
                    folder: .disk, path: temporaryPath, tierFolder: "public", name: temporaryName, kind: .temporary,
                    bytes: 3))
        let inventory = StateInventory(items: items)
        #expect(inventory.temporaryFiles.map(\.path) == [temporaryPath])
        #expect(inventory.objects.count == 8)
        #expect(inventory.defective.count == 6)
    }

    @Test func foreignNameInPlaceIsNamed() throws {
        let planted = try Planted()
        defer { planted.folder.remove() }
        try planted.write(
            Array("MCSE".utf8) + [0, 1, 0, 0] + [UInt8](repeating: 0, count: 40), "sealed/private/ab/cd/receipt.jpg")
        let item = try StateInventory.scan(stateDirectory: planted.folder.path, integrityKey: Sample.integrityKey).items
            .first { $0.name == "receipt.jpg" }
        #expect(item?.isSealed == true)
        #expect(item?.defect == InventoryDefect(.foreignName, "the name is not 64 lower-case hex characters"))
    }

    @Test func symlinksAreReportedNeverFollowedAndNothingChanges() throws {
        let planted = try Planted()
        defer { planted.folder.remove() }
        let outside = try TemporaryFolder()
        defer { outside.remove() }
        Sample.write(Array("secret plaintext".utf8), to: outside.path + "/secret.jpg")
        let fileManager = FileManager.default
        let linkHex = KeyDigest.hex(of: "link")
        let linkFolder = planted.folder.path + "/sealed/private/\(linkHex.prefix(2))/\(linkHex.dropFirst(2).prefix(2))"
        try fileManager.createDirectory(atPath: linkFolder, withIntermediateDirectories: true)
        try fileManager.createSymbolicLink(
            atPath: linkFolder + "/" + linkHex, withDestinationPath: outside.path + "/secret.jpg")
        try fileManager.createSymbolicLink(
            atPath: planted.folder.path + "/disk/elsewhere", withDestinationPath: outside.path)

        func snapshot() throws -> [String: [UInt8]] {
            var out: [String: [UInt8]] = [:]
            for root in [planted.folder.path, outside.path] {
                for relative in fileManager.subpaths(atPath: root) ?? [] {
                    let path = root + "/" + relative
                    let attributes = try fileManager.attributesOfItem(atPath: path)
                    let modified = (attributes[.modificationDate] as! Date).timeIntervalSince1970
                    if attributes[.type] as? FileAttributeType == .typeSymbolicLink {
                        out[path] = Array(try fileManager.destinationOfSymbolicLink(atPath: path).utf8)
                    } else if attributes[.type] as? FileAttributeType == .typeRegular {
                        out[path] = Sample.read(path) + Array("\(modified)".utf8)
                    } else {
                        out[path] = Array("\(modified)".utf8)
                    }
                }
            }
            return out
        }
        let before = try snapshot()
        let items = try StateInventory.scan(stateDirectory: planted.folder.path,
        integrityKey: Sample.integrityKey).items
        #expect(try snapshot() == before)
        let linkPath = "sealed/private/\(linkHex.prefix(2))/\(linkHex.dropFirst(2).prefix(2))/\(linkHex)"
        #expect(
            items.map(\.path)
                == [
                    "disk/elsewhere", planted.relative("disk", "public", planted.diskHex),
                    planted.relative("sealed", "private", planted.sealedHex), linkPath,
                ].sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
        #expect(
            items[0]
                == InventoryItem(
                    folder: .disk, path: "disk/elsewhere", tierFolder: nil, name: "elsewhere", kind: .notRegular,
                    bytes: outside.path.utf8.count, defect: InventoryDefect(.notRegular, "a symlink (not followed)")))
        let link = items.first { $0.path == linkPath }
        #expect(link?.kind == .notRegular)
        #expect(link?.tierFolder == "private")
        #expect(link?.defect == InventoryDefect(.notRegular, "a symlink (not followed)"))
    }

    @Test func objectFolderThatIsASymlinkIsNotEntered() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let outside = try TemporaryFolder()
        defer { outside.remove() }
        try FileManager.default.createDirectory(
            atPath: outside.path + "/public/ab/cd", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: folder.path + "/sealed", withDestinationPath: outside.path)
        let items = try StateInventory.scan(stateDirectory: folder.path, integrityKey: Sample.integrityKey).items
        #expect(
            items == [
                InventoryItem(
                    folder: .sealed, path: "sealed", tierFolder: nil, name: "sealed", kind: .notRegular,
                    bytes: outside.path.utf8.count, defect: InventoryDefect(.notRegular, "a symlink (not followed)"))
            ])
    }

    @Test func emptyAndMissingStateDirectories() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        #expect(try StateInventory.scan(stateDirectory: folder.path, integrityKey: Sample.integrityKey).items == [])
        let missing = folder.path + "/missing"
        #expect(throws: StorageError(.io, "open \(missing): No such file or directory (errno 2)")) {
            try StateInventory.scan(stateDirectory: missing, integrityKey: Sample.integrityKey)
        }
    }

    @Test func foldersDeeperThanTheLimitAreNotEntered() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try FileManager.default.createDirectory(atPath: folder.path + "/disk/a/b/c", withIntermediateDirectories: true)
        Sample.write([1], to: folder.path + "/disk/a/b/c/x")
        let items = try StateInventory.scan(
            stateDirectory: folder.path, integrityKey: Sample.integrityKey, configuration: .init(maximumDepth: 2)
        ).items
        #expect(
            items == [
                InventoryItem(
                    folder: .disk, path: "disk/a/b/c", tierFolder: "a", name: "c", kind: .notRegular, bytes: 0,
                    defect: InventoryDefect(.misplaced, "a folder deeper than 2 levels"))
            ])
    }
}
