import Dispatch
import Foundation
import Glibc
import MediaCrypto
@testable import MediaStorage
import Synchronization
import Testing

/// Write-behind (`writesBehind`): the entry is indexed and readable at once, its file appears once
/// the writer ran, and nothing removed meanwhile ever reaches the disk. The writer is held with a
/// job of the test's own (``WriterGate``), so each interleaving is exact, not timed.
@Suite struct WriteBehindTests {
    private func fileSize(_ entry: StoredEntry, key: String) -> Int { Sample.diskFileSize(entry, key: key) }

    private func open(_ folder: TemporaryFolder, _ recorder: EventRecorder, byteLimit: Int = 1 << 20,
                      pendingByteLimit: Int = 64 << 20) throws -> DiskStore {
        try DiskStore(directory: folder.path + "/disk",
                      configuration: .init(byteLimit: byteLimit, entryByteLimit: byteLimit, synchronizesWrites: true,
                                           writesBehind: true, pendingByteLimit: pendingByteLimit),
                                           integrityKey: Sample.integrityKey,
                      onEvent: recorder.handler)
    }

    @Test func entryIsServedBeforeItsFileExistsAndSurvivesRestartAfterFlush() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let recorder = EventRecorder()
        let key = "https://o/catalog/a.jpg"
        let entry = Sample.entry(key, body: Sample.bytes(5_000))
        do {
            let store = try open(folder, recorder)
            let gate = WriterGate(store.files)
            try store.store(entry, for: key)
            #expect(store.entry(for: key)?.body == entry.body)
            #expect(store.entry(for: key)?.metadata.storageClass == .disk)
            #expect(store.totals == StorageTotals(bytes: fileSize(entry, key: key), count: 1))
            #expect(store.pendingWriteBytes == fileSize(entry, key: key))
            #expect(folder.files(under: "disk").isEmpty)
            gate.open()
            store.flush()
            #expect(folder.files(under: "disk") == [String(KeyDigest.hex(of: key).prefix(2)) + "/"
                                                      + String(KeyDigest.hex(of: key).dropFirst(2).prefix(2)) + "/"
                                                      + KeyDigest.hex(of: key)])
            #expect(store.pendingWriteBytes == 0)
            #expect(store.entry(for: key)?.body == entry.body)
        }
        let reopened = try open(folder, recorder)
        #expect(reopened.entry(for: key)?.body == entry.body)
        #expect(recorder.events.isEmpty)
    }

    @Test func removedBeforeItsWriteNeverReachesTheDisk() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let recorder = EventRecorder()
        let store = try open(folder, recorder)
        let gate = WriterGate(store.files)
        try store.store(Sample.entry("a", body: [1, 2, 3]), for: "a")
        #expect(store.remove("a")?.key == "a")
        gate.open()
        store.flush()
        #expect(folder.files(under: "disk") == [])
        #expect(store.entry(for: "a") == nil)
        #expect(store.pendingWriteBytes == 0)
        #expect(recorder.events.isEmpty)
    }

    /// Logout (C19) while a partition's entry waits for its file: the purge returns it and no file appears.
    @Test func purgeOfAPartitionDropsItsPendingEntries() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = try open(folder, EventRecorder())
        let gate = WriterGate(store.files)
        try store.store(Sample.entry("mine", body: [1], partition: "p1"), for: "mine")
        try store.store(Sample.entry("theirs", body: [2], partition: "p2"), for: "theirs")
        #expect(store.removeAll(where: { $0.partition == "p1" }).map(\.key) == ["mine"])
        gate.open()
        store.flush()
        #expect(folder.files(under: "disk") == [Self.relativePath("theirs")])
    }

    @Test func sweepAndEvictionDropPendingEntries() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let recorder = EventRecorder()
        let first = Sample.entry("first", body: Sample.bytes(600), expiresAt: 3_000)
        let store = try open(folder, recorder, byteLimit: fileSize(first, key: "first") + 700)
        let gate = WriterGate(store.files)
        try store.store(Sample.entry("old", body: [9], expiresAt: 1_500), for: "old")
        #expect(store.sweep(now: 2_000).map(\.key) == ["old"])
        try store.store(first, for: "first")
        try store.store(Sample.entry("second", body: Sample.bytes(600, seed: 3), expiresAt: 3_000), for: "second")
        gate.open()
        store.flush()
        #expect(folder.files(under: "disk") == [Self.relativePath("second")])
        #expect(recorder.events.map { "\($0.kind.rawValue) \($0.reason)" } == ["expire expired", "evict byte-limit"])
        #expect(store.pendingWriteBytes == 0)
    }

    @Test func aNewerVersionReplacesThePendingOne() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let recorder = EventRecorder()
        let store = try open(folder, recorder)
        let gate = WriterGate(store.files)
        try store.store(Sample.entry("k", body: [1, 1, 1]), for: "k")
        try store.store(Sample.entry("k", body: [2, 2]), for: "k")
        #expect(store.pendingWriteBytes == fileSize(Sample.entry("k", body: [2, 2]), key: "k"))
        gate.open()
        store.flush()
        let reopened = try open(folder, recorder)
        #expect(reopened.entry(for: "k")?.body == [2, 2])
        #expect(folder.files(under: "disk") == [Self.relativePath("k")])
    }

    /// A write that fails (here: a regular file where the entry's folder belongs) drops the entry,
    /// reported as an eviction with reason `write-failed`.
    @Test func aFailedWriteEvictsTheEntry() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let recorder = EventRecorder()
        let store = try open(folder, recorder)
        let gate = WriterGate(store.files)
        let digest = KeyDigest.hex(of: "k")
        Sample.write([0], to: folder.path + "/disk/" + String(digest.prefix(2)))
        try store.store(Sample.entry("k", body: [1, 2, 3]), for: "k")
        gate.open()
        store.flush()
        #expect(store.entry(for: "k") == nil)
        #expect(store.totals == StorageTotals(bytes: 0, count: 0))
        #expect(recorder.events.map(\.description)
                == ["evict disk \(digest) bytes=\(fileSize(Sample.entry("k", body: [1, 2, 3]), key: "k")) tier=public partition=- reason=write-failed"])
    }

    /// Past `pendingByteLimit` the caller writes the file itself: it exists when `store` returns.
    @Test func pastThePendingLimitTheCallerWrites() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = try open(folder, EventRecorder(), pendingByteLimit: 10)
        let gate = WriterGate(store.files)
        try store.store(Sample.entry("k", body: [1, 2, 3]), for: "k")
        #expect(folder.files(under: "disk") == [Self.relativePath("k")])
        gate.open()
    }

    /// A graceful stop of a sealed store drops what waits for the writer (reported as shreds) and
    /// never seals with a zeroed key; nothing is left on disk.
    @Test func sealedStopDropsPendingEntries() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let recorder = EventRecorder()
        let store = try EncryptedDiskStore(directory: folder.path + "/sealed",
                                           configuration: .init(synchronizesWrites: false, writesBehind: true),
                                           onEvent: recorder.handler)
        let gate = WriterGate(store.files)
        try store.store(Sample.entry("written", body: Sample.bytes(64), partition: "p"), for: "written")
        let release = DispatchQueue(label: "release")
        gate.open()
        store.flush()
        let held = WriterGate(store.files)
        try store.store(Sample.entry("waiting", body: Sample.bytes(64, seed: 9), partition: "p"), for: "waiting")
        #expect(folder.files(under: "sealed").count == 1)
        release.asyncAfter(deadline: .now()) { held.open() }
        store.stop()
        #expect(folder.files(under: "sealed") == [])
        #expect(recorder.events.map { "\($0.kind.rawValue) \($0.reason)" }.sorted() == ["shred stop", "shred stop"])
        #expect(store.entry(for: "written") == nil)
    }

    static func relativePath(_ key: String) -> String {
        let digest = KeyDigest.hex(of: key)
        return String(digest.prefix(2)) + "/" + String(digest.dropFirst(2).prefix(2)) + "/" + digest
    }
}

/// Holds a store's writer: a job that waits until ``open()``; writes queued behind it wait too.
final class WriterGate: Sendable {
    private let semaphore = DispatchSemaphore(value: 0)

    init(_ files: FileStore) {
        let semaphore = self.semaphore
        files.writer?.async { semaphore.wait() }
    }

    func open() { semaphore.signal() }
}

/// `store(_:for:recordingFirst:)`: the record comes first, the evictions it causes after it, and a
/// failing record stores nothing — with and without write-behind.
@Suite struct RecordingFirstTests {
    final class Log: Sendable {
        let lines = Mutex<[String]>([])
        func add(_ line: String) { lines.withLock { $0.append(line) } }
        var all: [String] { lines.withLock { $0 } }
    }

    struct Refused: Error {}

    @Test(arguments: [false, true])
    func theRecordPrecedesTheEvictionsItCauses(writesBehind: Bool) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let log = Log()
        let first = Sample.entry("first", body: Sample.bytes(600))
        let size = Sample.diskFileSize(first, key: "first")
        let store = try DiskStore(directory: folder.path + "/disk",
                                  configuration: .init(byteLimit: size + 700, entryByteLimit: size + 700,
                                                       synchronizesWrites: false, writesBehind: writesBehind),
                                                       integrityKey: Sample.integrityKey,
                                  onEvent: { log.add("\($0.kind.rawValue) \($0.reason)") })
        try store.store(first, for: "first") { log.add("record first") }
        try store.store(Sample.entry("second", body: Sample.bytes(600, seed: 2)), for: "second") { log.add("record second") }
        store.flush()
        #expect(log.all == ["record first", "record second", "evict byte-limit"])
        #expect(folder.files(under: "disk") == [WriteBehindTests.relativePath("second")])
    }

    @Test(arguments: [false, true])
    func aFailingRecordStoresNothing(writesBehind: Bool) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = try DiskStore(directory: folder.path + "/disk",
                                  configuration: .init(synchronizesWrites: false, writesBehind: writesBehind),
                                  integrityKey: Sample.integrityKey)
        #expect(throws: Refused.self) {
            try store.store(Sample.entry("k", body: [1, 2, 3]), for: "k") { throw Refused() }
        }
        store.flush()
        #expect(store.entry(for: "k") == nil)
        #expect(store.totals == StorageTotals(bytes: 0, count: 0))
        #expect(folder.files(under: "disk") == [])
    }
}
