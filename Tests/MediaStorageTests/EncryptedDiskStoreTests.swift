import Foundation
import Glibc
import MediaCrypto
@testable import MediaStorage
import Testing

@Suite struct EncryptedDiskStoreTests {
    static let url = "http://127.0.0.1:8081/receipts/r-7731.png?sig=SECRETQUERY"
    static let partition = "5f1e0c0ffee0ddba11"

    private func open(_ folder: TemporaryFolder, _ recorder: EventRecorder, key: SymmetricKey? = nil,
                      byteLimit: Int = 8 << 20) throws -> EncryptedDiskStore {
        try EncryptedDiskStore(directory: folder.path + "/sealed",
                               configuration: .init(byteLimit: byteLimit, entryByteLimit: byteLimit, synchronizesWrites: false),
                               key: key, onEvent: recorder.handler)
    }

    private func markBody(_ count: Int) -> [UInt8] {
        let mark = Array("MARK-U1-receipt-".utf8)
        return (0..<count).map { mark[$0 % mark.count] }
    }

    private func sealedSize(_ entry: StoredEntry, key: String) -> Int {
        var metadata = entry.metadata
        metadata.key = key
        metadata.storageClass = .encryptedDisk
        return 16 + 28 + entry.body.count + MetadataCoding.encode(metadata).count + 4
    }

    private func privateEntry(_ body: [UInt8]) -> StoredEntry {
        Sample.entry(Self.url, body: body, tier: "private", route: "receipts", partition: Self.partition,
                     head: Array("HTTP/1.1 200 OK\r\nContent-Type: image/png\r\nX-Head-Mark: HEADMARK\r\n".utf8))
    }

    @Test func roundTripAndNothingPlaintextOnDisk() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = try open(folder, EventRecorder())
        let small = privateEntry(markBody(300))
        let large = privateEntry(markBody(1 << 20))
        try store.store(small, for: Self.url)
        try store.store(large, for: Self.url + "&large")
        let got = try #require(store.entry(for: Self.url))
        #expect(got.body == small.body)
        #expect(got.metadata.partition == Self.partition)
        #expect(got.metadata.head == small.metadata.head)
        #expect(got.metadata.storageClass == .encryptedDisk)
        #expect(store.entry(for: Self.url + "&large")?.body == large.body)
        let files = folder.files(under: "sealed")
        #expect(files.count == 2)
        for file in files {
            let bytes = Sample.read(folder.path + "/sealed/" + file)
            #expect(Array(bytes.prefix(8)) == Array("MCSE".utf8) + [0, 2, 0, 0])
            for needle in [Self.url, "MARK-U1", "receipts", "127.0.0.1", "SECRETQUERY", "r-7731", "HEADMARK", "Content-Type",
                           Self.partition, "private", "encrypted-disk"] {
                #expect(!Sample.contains(bytes, Array(needle.utf8)), "\(needle) found in \(file)")
            }
        }
        #expect(Sample.read(store.filePath(for: Self.url)).count == sealedSize(small, key: Self.url))
        #expect(store.totals == StorageTotals(bytes: sealedSize(small, key: Self.url) + sealedSize(large, key: Self.url + "&large"), count: 2))
    }

    @Test func folderNamesMatchTheStateDirectoryContract() {
        #expect(DiskStore.folderName == "disk")
        #expect(EncryptedDiskStore.folderName == "sealed")
    }

    @Test func exactPermissions() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = try open(folder, EventRecorder())
        try store.store(privateEntry([1]), for: "k")
        let path = store.filePath(for: "k")
        #expect(Sample.mode(path) == 0o600)
        #expect(Sample.mode(folder.path + "/sealed") == 0o700)
        #expect(Sample.mode((path as NSString).deletingLastPathComponent) == 0o700)
        #expect(Sample.mode(((path as NSString).deletingLastPathComponent as NSString).deletingLastPathComponent) == 0o700)
    }

    @Test func tamperedFileIsDetectedRemovedAndReported() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let recorder = EventRecorder()
        let store = try open(folder, recorder)
        let entry = privateEntry(markBody(100))
        try store.store(entry, for: "k")
        let path = store.filePath(for: "k")
        var bytes = Sample.read(path)
        bytes[40] ^= 0x01
        Sample.write(bytes, to: path)
        #expect(store.entry(for: "k") == nil)
        #expect(recorder.events == [StorageEvent(kind: .corrupt, storageClass: .encryptedDisk, keyDigest: KeyDigest.hex(of: "k"),
                                                 bytes: sealedSize(entry, key: "k"), tier: "private", route: "receipts",
                                                 partition: Self.partition, reason: .authenticationFailure)])
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test func relabelledVersionIsRejected() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let recorder = EventRecorder()
        let store = try open(folder, recorder)
        try store.store(privateEntry([1, 2]), for: "k")
        let path = store.filePath(for: "k")
        var bytes = Sample.read(path)
        bytes[5] = 3
        Sample.write(bytes, to: path)
        #expect(store.entry(for: "k") == nil)
        #expect(recorder.events.map(\.reason) == [.foreignVersion])
        try store.store(privateEntry([1, 2]), for: "k")
        bytes = Sample.read(path)
        bytes[7] = 9  // reserved byte: covered by the associated data
        Sample.write(bytes, to: path)
        #expect(store.entry(for: "k") == nil)
        #expect(recorder.events.map(\.reason) == [.foreignVersion, .authenticationFailure])
    }

    @Test func swappedFilesAreRejected() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let recorder = EventRecorder()
        let store = try open(folder, recorder)
        try store.store(privateEntry(Array("body of A".utf8)), for: "a")
        try store.store(privateEntry(Array("body of B".utf8)), for: "b")
        let pathA = store.filePath(for: "a")
        let pathB = store.filePath(for: "b")
        let bytesA = Sample.read(pathA)
        Sample.write(Sample.read(pathB), to: pathA)
        Sample.write(bytesA, to: pathB)
        #expect(store.entry(for: "a") == nil)
        #expect(store.entry(for: "b") == nil)
        #expect(recorder.events.map(\.reason) == [.authenticationFailure, .authenticationFailure])
        #expect(recorder.events.map(\.keyDigest) == [KeyDigest.hex(of: "a"), KeyDigest.hex(of: "b")])
    }

    @Test func wrongKeyReadsNothing() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = try open(folder, EventRecorder())
        try store.store(privateEntry(markBody(50)), for: "k")
        let path = store.filePath(for: "k")
        let fd = Glibc.open(path, O_RDONLY)
        defer { close(fd) }
        let other = SealedFileFormat(keys: try DataKeyring(unpartitioned: try SymmetricKey(), lifetime: 86_400, clock: { 0 }))
        let result = other.read(from: fd, size: Sample.read(path).count, name: KeyDigest.hex(of: "k"))
        guard case .failure(let defect) = result else {
            Issue.record("a wrong key opened the file")
            return
        }
        #expect(defect.reason == .authenticationFailure)
    }

    @Test func restartShredsEarlierFilesAndReportsEach() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let entry = privateEntry(markBody(200))
        let path: String
        do {
            let first = try open(folder, EventRecorder())
            try first.store(entry, for: "k1")
            try first.store(entry, for: "k2")
            path = first.filePath(for: "k1")
        }
        // A hard link shows what shredding did to the file's blocks.
        let witness = folder.path + "/witness"
        try FileManager.default.linkItem(atPath: path, toPath: witness)
        let size = sealedSize(entry, key: "k1")
        let recorder = EventRecorder()
        let second = try open(folder, recorder)
        #expect(Set(recorder.events) == Set(["k1", "k2"].map {
            StorageEvent(kind: .shred, storageClass: .encryptedDisk, keyDigest: KeyDigest.hex(of: $0), bytes: size,
                         tier: nil, route: nil, partition: nil, reason: .previousProcess)
        }))
        #expect(folder.files(under: "sealed").isEmpty)
        #expect(Sample.read(witness) == [UInt8](repeating: 0, count: size))
        #expect(second.entry(for: "k1") == nil)
        #expect(second.totals == StorageTotals(bytes: 0, count: 0))
    }

    @Test func restartKeepsDiskAndShredsSealed() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        do {
            let disk = try DiskStore(directory: folder.path + "/disk", configuration: .init(synchronizesWrites: false),
                                     integrityKey: Sample.integrityKey)
            let sealed = try open(folder, EventRecorder())
            try disk.store(Sample.entry("public", body: [1, 2, 3]), for: "public")
            try sealed.store(privateEntry([4, 5, 6]), for: "private")
        }
        let diskEvents = EventRecorder()
        let sealedEvents = EventRecorder()
        let disk = try DiskStore(directory: folder.path + "/disk",
                                 integrityKey: Sample.integrityKey, onEvent: diskEvents.handler)
        let sealed = try open(folder, sealedEvents)
        #expect(disk.entry(for: "public")?.body == [1, 2, 3])
        #expect(sealed.entry(for: "private") == nil)
        #expect(diskEvents.events.isEmpty)
        #expect(sealedEvents.events.map(\.kind) == [.shred])
        #expect(sealedEvents.events.map(\.keyDigest) == [KeyDigest.hex(of: "private")])
    }

    @Test func leftoverSealedTempFilesAndSymlinksAtStart() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let first = try open(folder, EventRecorder())
        try first.store(privateEntry([1]), for: "k")
        let path = first.filePath(for: "k")
        Sample.write([9, 9, 9], to: path + ".tmp-aaaaaaaaaaaaaaaa")
        let target = folder.path + "/target"
        Sample.write([7, 7], to: target)
        try FileManager.default.removeItem(atPath: path)
        try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: target)
        let recorder = EventRecorder()
        _ = try open(folder, recorder)
        #expect(recorder.events == [StorageEvent(kind: .corrupt, storageClass: .encryptedDisk, keyDigest: KeyDigest.hex(of: "k"),
                                                 bytes: 0, tier: nil, route: nil, partition: nil, reason: .notRegularFile)])
        #expect(folder.files(under: "sealed").isEmpty)
        #expect(Sample.read(target) == [7, 7])
    }

    @Test func gracefulStopZeroesKeyAndRemovesFiles() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let recorder = EventRecorder()
        let key = try SymmetricKey()
        let store = try open(folder, recorder, key: key)
        let entry = privateEntry([1, 2, 3])
        try store.store(entry, for: "k")
        store.stop()
        #expect(key.isDestroyed)
        #expect(folder.files(under: "sealed").isEmpty)
        #expect(recorder.events == [StorageEvent(kind: .shred, storageClass: .encryptedDisk, keyDigest: KeyDigest.hex(of: "k"),
                                                 bytes: sealedSize(entry, key: "k"), tier: "private", route: "receipts",
                                                 partition: Self.partition, reason: .stop)])
        #expect(store.entry(for: "k") == nil)
        #expect(throws: StorageError(.stopped, "the encrypted-disk store was stopped")) { try store.store(entry, for: "k") }
        store.stop()
        #expect(recorder.events.count == 1)
    }

    @Test func purgeByPartitionLeavesOthers() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let recorder = EventRecorder()
        let store = try open(folder, recorder)
        try store.store(Sample.entry("u1-a", body: [1], tier: "private", partition: "u1"), for: "u1-a")
        try store.store(Sample.entry("u2-a", body: [2], tier: "private", partition: "u2"), for: "u2-a")
        try store.store(Sample.entry("u1-b", body: [3], tier: "private", partition: "u1"), for: "u1-b")
        #expect(store.removeAll { $0.partition == "u1" }.map(\.key) == ["u1-a", "u1-b"])
        #expect(folder.files(under: "sealed").count == 1)
        #expect(store.entry(for: "u2-a")?.body == [2])
        try store.store(Sample.entry("u1-c", body: [4], tier: "private", partition: "u1"), for: "u1-c")
        #expect(store.entry(for: "u1-c")?.body == [4])
        #expect(recorder.events.isEmpty)
    }

    @Test func everyWriteUsesANewNonce() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = try open(folder, EventRecorder())
        let entry = privateEntry([1, 2, 3])
        try store.store(entry, for: "k")
        let first = Sample.read(store.filePath(for: "k"))
        try store.store(entry, for: "k")
        let second = Sample.read(store.filePath(for: "k"))
        #expect(first.count == second.count)
        #expect(Array(first[8..<16]) == Array(second[8..<16]))  // the same data key
        #expect(Array(first[16..<20]) == Array(second[16..<20]))
        #expect(Array(first[20..<28]) == [0, 0, 0, 0, 0, 0, 0, 0])
        #expect(Array(second[20..<28]) == [0, 0, 0, 0, 0, 0, 0, 1])
        #expect(first[28...] != second[28...])
        #expect(store.entry(for: "k")?.body == [1, 2, 3])
    }

    @Test func invalidConfiguration() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        #expect(throws: StorageError(.invalidConfiguration, "encrypted-disk byteLimit, entryByteLimit and countLimit must be positive")) {
            try EncryptedDiskStore(directory: folder.path + "/sealed", configuration: .init(byteLimit: 0))
        }
    }
}

@Suite struct EncryptedDiskConcurrencyTests {
    @Test func concurrentReadersAndWritersSeeWholeEntries() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = try EncryptedDiskStore(directory: folder.path + "/sealed",
                                           configuration: .init(byteLimit: 60_000, synchronizesWrites: false))
        await withTaskGroup(of: Void.self) { group in
            for worker in 0..<4 {
                group.addTask {
                    for round in 0..<120 {
                        let key = "k\((worker * 3 + round) % 30)"
                        if round % 2 == 0 {
                            let body = [UInt8](repeating: UInt8(round % 251), count: 700)
                            try? store.store(Sample.entry(key, body: body, tier: "private", partition: "p"), for: key)
                        } else if let got = store.entry(for: key) {
                            #expect(got.metadata.key == key)
                            #expect(got.body.count == 700)
                            #expect(Set(got.body).count == 1)
                        }
                    }
                }
            }
        }
        #expect(store.totals.count == store.inventory().count)
        #expect(store.totals.bytes <= 60_000)
        #expect(folder.files(under: "sealed").count == store.totals.count)
        store.stop()
        #expect(folder.files(under: "sealed").isEmpty)
    }
}
