import Foundation
import MediaCore
import Synchronization
@testable import MediaStorage
import Testing

/// Crypto-shredding in the encrypted-disk store: each partition's objects are sealed under its own data key, whose id
/// the file header carries; destroying a partition's keys makes its files unreadable before they are removed, other
/// partitions untouched; keys rotate by age.
@Suite struct PartitionKeyTests {
    final class Clock: Sendable {
        let seconds = Mutex<Double>(1_000)
        var read: @Sendable () -> Double { { self.seconds.withLock { $0 } } }
    }

    func open(_ folder: TemporaryFolder, _ recorder: EventRecorder = EventRecorder(), lifetime: Double = 3_600,
              clock: Clock = Clock()) throws -> EncryptedDiskStore {
        try EncryptedDiskStore(directory: folder.path + "/sealed", configuration: .init(synchronizesWrites: false),
                               keyLifetime: lifetime, clock: clock.read, onEvent: recorder.handler)
    }

    func headerKeyID(_ store: EncryptedDiskStore, _ key: String) -> String {
        Hex.encode(Sample.read(store.filePath(for: key))[8..<16])
    }

    @Test func eachPartitionHasItsOwnKeyNamedInTheHeader() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = try open(folder)
        try store.store(Sample.entry("a1", body: [1], tier: "private", partition: "aa"), for: "a1")
        try store.store(Sample.entry("a2", body: [2], tier: "private", partition: "aa"), for: "a2")
        try store.store(Sample.entry("b1", body: [3], tier: "private", partition: "bb"), for: "b1")
        try store.store(Sample.entry("s1", body: [4], tier: "private"), for: "s1")
        #expect(headerKeyID(store, "a1") == store.keyID(partition: "aa"))
        #expect(headerKeyID(store, "a2") == headerKeyID(store, "a1"))
        #expect(headerKeyID(store, "b1") == store.keyID(partition: "bb"))
        #expect(headerKeyID(store, "s1") == store.keyID(partition: nil))
        #expect(Set([headerKeyID(store, "a1"), headerKeyID(store, "b1"), headerKeyID(store, "s1")]).count == 3)
        let inventory = try StateInventory.scan(stateDirectory: folder.path, integrityKey: nil).items
        #expect(Set(inventory.compactMap(\.sealedKeyID)) == Set([headerKeyID(store, "a1"), headerKeyID(store, "b1"), headerKeyID(store, "s1")]))
    }

    @Test func destroyingAPartitionsKeysLeavesItsFilesUnreadableAndOthersServed() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let recorder = EventRecorder()
        let store = try open(folder, recorder)
        try store.store(Sample.entry("a1", body: [1], tier: "private", partition: "aa"), for: "a1")
        try store.store(Sample.entry("b1", body: [2], tier: "private", partition: "bb"), for: "b1")
        let id = try #require(store.keyID(partition: "aa"))
        #expect(store.destroyKeys(partition: "aa") == [id])
        // The file is still there (as after a crash before its deletion), and nobody can open it.
        #expect(FileManager.default.fileExists(atPath: store.filePath(for: "a1")))
        #expect(store.entry(for: "a1") == nil)
        #expect(recorder.events.map(\.reason) == [.authenticationFailure])
        #expect(store.entry(for: "b1")?.body == [2])
        // The partition's next object gets a new key.
        try store.store(Sample.entry("a2", body: [3], tier: "private", partition: "aa"), for: "a2")
        #expect(headerKeyID(store, "a2") != id)
        #expect(store.entry(for: "a2")?.body == [3])
    }

    @Test func aKeyRotatesWhenItsLifetimeEndsAndTheOldOneStillOpensItsObjects() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let clock = Clock()
        let store = try open(folder, lifetime: 60, clock: clock)
        try store.store(Sample.entry("a1", body: [1], tier: "private", partition: "aa"), for: "a1")
        clock.seconds.withLock { $0 += 59 }
        try store.store(Sample.entry("a2", body: [2], tier: "private", partition: "aa"), for: "a2")
        #expect(headerKeyID(store, "a2") == headerKeyID(store, "a1"))
        clock.seconds.withLock { $0 += 1 }
        try store.store(Sample.entry("a3", body: [3], tier: "private", partition: "aa"), for: "a3")
        let (first, second) = (headerKeyID(store, "a1"), headerKeyID(store, "a3"))
        #expect(second != first)
        #expect(store.entry(for: "a1")?.body == [1])
        #expect(store.entry(for: "a3")?.body == [3])
        #expect(store.destroyKeys(partition: "aa") == [first, second])
        #expect(store.entry(for: "a1") == nil)
        #expect(store.entry(for: "a3") == nil)
    }
}
