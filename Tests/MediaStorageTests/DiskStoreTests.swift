import Foundation
import Glibc
import MediaCrypto
@testable import MediaStorage
import Testing

@Suite struct DiskStoreTests {
    private func fileSize(_ entry: StoredEntry, key: String, storageClass: StorageClassName = .disk) -> Int {
        Sample.diskFileSize(entry, key: key, storageClass: storageClass)
    }

    private func open(_ folder: TemporaryFolder, _ recorder: EventRecorder, byteLimit: Int = 1 << 20) throws -> DiskStore {
        try DiskStore(directory: folder.path + "/disk",
                      configuration: .init(byteLimit: byteLimit, entryByteLimit: byteLimit, synchronizesWrites: false),
                      integrityKey: Sample.integrityKey,
                      onEvent: recorder.handler)
    }

    @Test func roundTripSurvivesRestart() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let recorder = EventRecorder()
        let entry = Sample.entry("https://o/catalog/a.jpg", body: Sample.bytes(5_000), partition: "ab12")
        do {
            let store = try DiskStore(directory: folder.path + "/disk",
                                      integrityKey: Sample.integrityKey, onEvent: recorder.handler)
            try store.store(entry, for: "https://o/catalog/a.jpg")
            #expect(store.entry(for: "https://o/catalog/a.jpg")?.body == entry.body)
        }
        let reopened = try open(folder, recorder)
        let got = try #require(reopened.entry(for: "https://o/catalog/a.jpg"))
        var expected = entry.metadata
        expected.storageClass = .disk
        #expect(got.metadata == expected)
        #expect(got.body == entry.body)
        #expect(reopened.totals == StorageTotals(bytes: fileSize(entry, key: "https://o/catalog/a.jpg"), count: 1))
        #expect(recorder.events.isEmpty)
    }

    @Test func layoutHeaderAndExactPermissions() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = try open(folder, EventRecorder())
        let key = "k"
        let entry = Sample.entry(key, body: [1, 2, 3])
        try store.store(entry, for: key)
        let digest = KeyDigest.hex(of: key)
        #expect(digest == "8254c329a92850f6d539dd376f4816ee2764517da5e0235514af433164480d7a")
        let path = folder.path + "/disk/82/54/" + digest
        #expect(store.filePath(for: key) == path)
        let bytes = Sample.read(path)
        #expect(bytes.count == fileSize(entry, key: key))
        #expect(Array(bytes[0..<8]) == Array("MCSD".utf8) + [0, 2, 0, 0])
        #expect(Array(bytes[bytes.count - 35..<bytes.count - 32]) == [1, 2, 3])
        #expect(Sample.mode(path) == 0o600)
        #expect(Sample.mode(folder.path + "/disk") == 0o700)
        #expect(Sample.mode(folder.path + "/disk/82") == 0o700)
        #expect(Sample.mode(folder.path + "/disk/82/54") == 0o700)
        #expect(folder.files(under: "disk") == ["82/54/" + digest])
    }

    @Test func byteLimitEvictsLeastRecentlyUsedFiles() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let recorder = EventRecorder()
        let one = fileSize(Sample.entry("k1", body: Sample.bytes(1_000)), key: "k1")
        let store = try open(folder, recorder, byteLimit: one * 3)
        for key in ["k1", "k2", "k3"] { try store.store(Sample.entry(key, body: Sample.bytes(1_000)), for: key) }
        #expect(store.entry(for: "k1") != nil)
        try store.store(Sample.entry("k4", body: Sample.bytes(1_000)), for: "k4")
        #expect(store.inventory().map(\.key) == ["k3", "k1", "k4"])
        #expect(recorder.events == [StorageEvent(kind: .evict, storageClass: .disk, keyDigest: KeyDigest.hex(of: "k2"),
                                                 bytes: one, tier: "public", route: "catalog", partition: nil, reason: .byteLimit)])
        #expect(!FileManager.default.fileExists(atPath: store.filePath(for: "k2")))
        #expect(folder.files(under: "disk").count == 3)
        #expect(store.totals == StorageTotals(bytes: one * 3, count: 3))
    }

    @Test func restartRebuildsLRUFromModificationTimes() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = try open(folder, EventRecorder())
        for key in ["a", "b", "c"] { try store.store(Sample.entry(key, body: [1]), for: key) }
        for (key, seconds) in [("a", 300.0), ("b", 100.0), ("c", 200.0)] {
            try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: seconds)],
                                                  ofItemAtPath: store.filePath(for: key))
        }
        let reopened = try open(folder, EventRecorder())
        #expect(reopened.inventory().map(\.key) == ["b", "c", "a"])
    }

    @Test func restartWithSmallerLimitEvicts() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let one = fileSize(Sample.entry("a", body: [1]), key: "a")
        let store = try open(folder, EventRecorder())
        for key in ["a", "b"] { try store.store(Sample.entry(key, body: [1]), for: key) }
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: 10)], ofItemAtPath: store.filePath(for: "b"))
        let recorder = EventRecorder()
        let reopened = try open(folder, recorder, byteLimit: one)
        #expect(reopened.inventory().map(\.key) == ["a"])
        #expect(recorder.events.map(\.kind) == [.evict])
        #expect(recorder.events.map(\.keyDigest) == [KeyDigest.hex(of: "b")])
    }

    @Test func entryTooLargeAndInvalidConfiguration() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = try DiskStore(directory: folder.path + "/disk", configuration: .init(byteLimit: 1_000),
                                  integrityKey: Sample.integrityKey)
        let entry = Sample.entry("k", body: Sample.bytes(100))
        #expect(throws: StorageError(.entryTooLarge, "disk entry of \(fileSize(entry, key: "k")) bytes exceeds the per-entry cap of 100 bytes")) {
            try store.store(entry, for: "k")
        }
        #expect(folder.files(under: "disk").isEmpty)
        #expect(throws: StorageError(.invalidConfiguration, "disk byteLimit, entryByteLimit, countLimit and scanThreads must be positive")) {
            try DiskStore(directory: folder.path + "/disk", configuration: .init(byteLimit: -1),
                          integrityKey: Sample.integrityKey)
        }
        #expect(throws: StorageError(.invalidConfiguration, "disk byteLimit, entryByteLimit, countLimit and scanThreads must be positive")) {
            try DiskStore(directory: folder.path + "/disk", configuration: .init(scanThreads: 0),
                          integrityKey: Sample.integrityKey)
        }
        #expect(throws: StorageError(.invalidConfiguration, "disk byteLimit, entryByteLimit, countLimit and scanThreads must be positive")) {
            try DiskStore(directory: folder.path + "/disk", configuration: .init(countLimit: 0),
                          integrityKey: Sample.integrityKey)
        }
    }

    /// The entry count is bounded (each entry costs index memory): past `countLimit` the least recently used
    /// entry is evicted, its file unlinked, reason `count-limit`; the startup scan keeps the limit too.
    @Test func countLimitEvictsLeastRecentlyUsed() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let recorder = EventRecorder()
        let configuration = DiskStore.Configuration(countLimit: 2, synchronizesWrites: false)
        let store = try DiskStore(directory: folder.path + "/disk", configuration: configuration,
                                  integrityKey: Sample.integrityKey, onEvent: recorder.handler)
        for key in ["k1", "k2", "k3"] { try store.store(Sample.entry(key, body: Sample.bytes(10)), for: key) }
        #expect(store.inventory().map(\.key) == ["k2", "k3"])
        #expect(recorder.events.map(\.reason) == [.countLimit])
        #expect(recorder.events.map(\.keyDigest) == [KeyDigest.hex(of: "k1")])
        #expect(folder.files(under: "disk").count == 2)
        let reopened = try DiskStore(directory: folder.path + "/disk",
                                     configuration: .init(countLimit: 1, synchronizesWrites: false),
                                     integrityKey: Sample.integrityKey, onEvent: recorder.handler)
        #expect(reopened.totals.count == 1)
        #expect(recorder.events.map(\.reason) == [.countLimit, .countLimit])
        #expect(folder.files(under: "disk").count == 1)
    }

    @Test func missingParentsAreCreatedAndTrailingSlashIgnored() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = try DiskStore(directory: folder.path + "/state/nested/disk/", configuration: .init(synchronizesWrites: false),
                                  integrityKey: Sample.integrityKey)
        #expect(store.directory == folder.path + "/state/nested/disk")
        try store.store(Sample.entry("k", body: [1]), for: "k")
        #expect(store.filePath(for: "k").hasPrefix(folder.path + "/state/nested/disk/82/54/"))
        #expect(Sample.mode(folder.path + "/state/nested") == 0o700)
        #expect(Sample.mode(folder.path + "/state/nested/disk") == 0o700)
    }

    @Test func symlinkedRootIsRefused() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try FileManager.default.createDirectory(atPath: folder.path + "/elsewhere", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: folder.path + "/disk", withDestinationPath: folder.path + "/elsewhere")
        #expect(throws: StorageError(.unsafePath, "\(folder.path)/disk is a symlink or not a folder")) {
            try DiskStore(directory: folder.path + "/disk", integrityKey: Sample.integrityKey)
        }
    }

    @Test func removeAllSweepAndFilesAgree() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let recorder = EventRecorder()
        let store = try open(folder, recorder)
        try store.store(Sample.entry("a", body: [1], route: "catalog", expiresAt: 50), for: "a")
        try store.store(Sample.entry("b", body: [2], route: "avatars", expiresAt: 500), for: "b")
        try store.store(Sample.entry("c", body: [3], route: "catalog", expiresAt: 500), for: "c")
        #expect(store.sweep(now: 50).map(\.key) == ["a"])
        #expect(recorder.events.map(\.kind) == [.expire])
        #expect(recorder.events.map(\.keyDigest) == [KeyDigest.hex(of: "a")])
        #expect(store.removeAll { $0.route == "catalog" }.map(\.key) == ["c"])
        #expect(folder.files(under: "disk") == [String(KeyDigest.hex(of: "b").prefix(2)) + "/" + String(KeyDigest.hex(of: "b").dropFirst(2).prefix(2)) + "/" + KeyDigest.hex(of: "b")])
        #expect(store.remove("b")?.route == "avatars")
        #expect(folder.files(under: "disk").isEmpty)
        #expect(recorder.events.count == 1)
    }

    @Test func concurrentReadersAndWriters() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = try open(folder, EventRecorder(), byteLimit: 40_000)
        await withTaskGroup(of: Void.self) { group in
            for worker in 0..<4 {
                group.addTask {
                    for round in 0..<150 {
                        let key = "k\((worker * 5 + round) % 40)"
                        if round % 2 == 0 {
                            try? store.store(Sample.entry(key, body: Sample.bytes(500, seed: UInt8(round % 200))), for: key)
                        } else if let got = store.entry(for: key) {
                            #expect(got.metadata.key == key)
                            #expect(got.body.count == 500)
                        }
                    }
                }
            }
        }
        let inventory = store.inventory()
        #expect(store.totals.count == inventory.count)
        #expect(store.totals.bytes <= 40_000)
        #expect(folder.files(under: "disk").count == inventory.count)
    }
}
