import Foundation
@testable import MediaStorage
import Testing

/// Files damaged between runs or behind the store's back: detected, removed, reported.
@Suite struct DiskCrashSafetyTests {
    private func open(_ folder: TemporaryFolder, _ recorder: EventRecorder) throws -> DiskStore {
        try DiskStore(directory: folder.path + "/disk", configuration: .init(synchronizesWrites: false),
                      integrityKey: Sample.integrityKey, onEvent: recorder.handler)
    }

    /// Stores `key` with a 64-byte body and returns the file path and its size.
    private func plant(_ folder: TemporaryFolder, _ key: String) throws -> (path: String, size: Int) {
        let store = try open(folder, EventRecorder())
        try store.store(Sample.entry(key, body: Sample.bytes(64)), for: key)
        let path = store.filePath(for: key)
        return (path, Sample.read(path).count)
    }

    private func corrupt(_ key: String, _ size: Int, _ reason: StorageEvent.Reason) -> StorageEvent {
        StorageEvent(kind: .corrupt, storageClass: .disk, keyDigest: KeyDigest.hex(of: key), bytes: size,
                     tier: nil, route: nil, partition: nil, reason: reason)
    }

    @Test func leftoverTempFilesAreRemovedSilently() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let (path, _) = try plant(folder, "k")
        Sample.write(Array("partial".utf8), to: path + ".tmp-0011223344556677")
        let recorder = EventRecorder()
        let store = try open(folder, recorder)
        #expect(recorder.events.isEmpty)
        #expect(store.totals.count == 1)
        #expect(!FileManager.default.fileExists(atPath: path + ".tmp-0011223344556677"))
    }

    @Test func truncatedFileIsRemovedAtScan() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let (path, size) = try plant(folder, "k")
        Sample.write(Array(Sample.read(path).prefix(size - 10)), to: path)
        let recorder = EventRecorder()
        let store = try open(folder, recorder)
        #expect(recorder.events == [corrupt("k", size - 10, .truncated)])
        #expect(store.totals == StorageTotals(bytes: 0, count: 0))
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test func emptyFileIsTruncated() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let (path, _) = try plant(folder, "k")
        Sample.write([], to: path)
        let recorder = EventRecorder()
        _ = try open(folder, recorder)
        #expect(recorder.events == [corrupt("k", 0, .truncated)])
    }

    @Test func flippedMetadataByteFailsTheHeaderChecksumAtScan() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let (path, size) = try plant(folder, "k")
        var bytes = Sample.read(path)
        bytes[60] ^= 0x01
        Sample.write(bytes, to: path)
        let recorder = EventRecorder()
        _ = try open(folder, recorder)
        #expect(recorder.events == [corrupt("k", size, .badChecksum)])
    }

    @Test func flippedBodyByteFailsTheFileChecksumOnRead() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let (path, size) = try plant(folder, "k")
        var bytes = Sample.read(path)
        bytes[size - 40] ^= 0x80
        Sample.write(bytes, to: path)
        let recorder = EventRecorder()
        let store = try open(folder, recorder)
        #expect(recorder.events.isEmpty)
        #expect(store.entry(for: "k") == nil)
        #expect(recorder.events == [StorageEvent(kind: .corrupt, storageClass: .disk, keyDigest: KeyDigest.hex(of: "k"), bytes: size,
                                                 tier: "public", route: "catalog", partition: nil, reason: .badChecksum)])
        #expect(!FileManager.default.fileExists(atPath: path))
        #expect(store.totals.count == 0)
        #expect(store.entry(for: "k") == nil)
        #expect(recorder.events.count == 1)
    }

    @Test func otherFormatVersionAndForeignMagicAreRemoved() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let (pathA, sizeA) = try plant(folder, "a")
        let (pathB, sizeB) = try plant(folder, "b")
        var bytes = Sample.read(pathA)
        bytes[5] = 3
        Sample.write(bytes, to: pathA)
        bytes = Sample.read(pathB)
        bytes[0] = UInt8(ascii: "X")
        Sample.write(bytes, to: pathB)
        let recorder = EventRecorder()
        _ = try open(folder, recorder)
        #expect(Set(recorder.events) == [corrupt("a", sizeA, .foreignVersion), corrupt("b", sizeB, .badMagic)])
        #expect(folder.files(under: "disk").isEmpty)
    }

    @Test func fileMovedToAnotherNameIsMalformed() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let (pathA, sizeA) = try plant(folder, "a")
        let store = try open(folder, EventRecorder())
        let pathB = store.filePath(for: "b")
        try FileManager.default.createDirectory(atPath: (pathB as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try FileManager.default.moveItem(atPath: pathA, toPath: pathB)
        let recorder = EventRecorder()
        _ = try open(folder, recorder)
        #expect(recorder.events == [corrupt("b", sizeA, .malformed)])
    }

    @Test func symlinksAreRemovedNeverFollowed() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let (path, _) = try plant(folder, "k")
        let target = folder.path + "/target"
        let original = Sample.read(path)
        Sample.write(original, to: target)
        try FileManager.default.removeItem(atPath: path)
        try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: target)
        // A fan-out folder replaced by a symlink to a folder.
        try FileManager.default.createDirectory(atPath: folder.path + "/outside", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: folder.path + "/disk/ff", withDestinationPath: folder.path + "/outside")
        let recorder = EventRecorder()
        let store = try open(folder, recorder)
        #expect(Set(recorder.events) == [
            corrupt("k", 0, .notRegularFile),
            StorageEvent(kind: .corrupt, storageClass: .disk, keyDigest: "ff", bytes: (folder.path + "/outside").utf8.count,
                         tier: nil, route: nil, partition: nil, reason: .notRegularFile),
        ])
        #expect(Sample.read(target) == original)
        #expect(FileManager.default.fileExists(atPath: folder.path + "/outside"))
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: path)) == nil)
        #expect(store.totals.count == 0)
    }

    @Test func symlinkPlantedAfterStartIsNotRead() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let recorder = EventRecorder()
        let store = try open(folder, recorder)
        try store.store(Sample.entry("k", body: Sample.bytes(64)), for: "k")
        let path = store.filePath(for: "k")
        let target = folder.path + "/target"
        try FileManager.default.moveItem(atPath: path, toPath: target)
        try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: target)
        #expect(store.entry(for: "k") == nil)
        #expect(recorder.events.map(\.reason) == [.notRegularFile])
        #expect(FileManager.default.fileExists(atPath: target))
    }

    @Test func fileDeletedBehindTheStoresBackIsReportedMissing() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let recorder = EventRecorder()
        let store = try open(folder, recorder)
        try store.store(Sample.entry("k", body: Sample.bytes(64)), for: "k")
        let size = Sample.read(store.filePath(for: "k")).count
        try FileManager.default.removeItem(atPath: store.filePath(for: "k"))
        #expect(store.entry(for: "k") == nil)
        #expect(recorder.events == [StorageEvent(kind: .corrupt, storageClass: .disk, keyDigest: KeyDigest.hex(of: "k"), bytes: size,
                                                 tier: "public", route: "catalog", partition: nil, reason: .missing)])
        #expect(store.totals == StorageTotals(bytes: 0, count: 0))
    }

    @Test func strayFilesAtFolderLevelsAreRemovedAndReported() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        _ = try plant(folder, "k")
        Sample.write([1, 2, 3], to: folder.path + "/disk/notes.txt")
        let recorder = EventRecorder()
        _ = try open(folder, recorder)
        #expect(recorder.events == [StorageEvent(kind: .corrupt, storageClass: .disk, keyDigest: "notes.txt", bytes: 3,
                                                 tier: nil, route: nil, partition: nil, reason: .malformed)])
    }
}
