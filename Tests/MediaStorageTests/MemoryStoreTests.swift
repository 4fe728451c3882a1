import MediaCrypto
@testable import MediaStorage
import Testing

@Suite struct MemoryStoreTests {
    /// Cost = key bytes + head bytes + body bytes; keys "k1".."k9" are 2 bytes, heads empty.
    private func entry(_ key: String, _ count: Int, expiresAt: Double = 2_000) -> StoredEntry {
        Sample.entry(key, body: Sample.bytes(count), expiresAt: expiresAt, head: [])
    }

    /// ``MemoryStore/accepts(_:for:)`` answers exactly what ``MemoryStore/store(_:for:)`` does at the per-entry cap.
    @Test func acceptsMatchesStoreAtTheCap() throws {
        let store = try MemoryStore(configuration: .init(byteLimit: 1_000, countLimit: 10, entryByteLimit: 100))
        let atCap = entry("k1", 98), overCap = entry("k2", 99)
        #expect(MemoryStore.cost(of: atCap, for: "k1") == 100)
        #expect(store.accepts(atCap, for: "k1"))
        #expect(!store.accepts(overCap, for: "k2"))
        try store.store(atCap, for: "k1")
        #expect(throws: StorageError(.entryTooLarge, "memory entry of 101 bytes exceeds the per-entry cap of 100 bytes")) {
            try store.store(overCap, for: "k2")
        }
    }

    @Test func strictLRUByBytes() throws {
        let recorder = EventRecorder()
        let store = try MemoryStore(configuration: .init(byteLimit: 300, countLimit: 10, entryByteLimit: 300),
                                    onEvent: recorder.handler)
        try store.store(entry("k1", 98), for: "k1")
        try store.store(entry("k2", 98), for: "k2")
        try store.store(entry("k3", 98), for: "k3")
        #expect(store.totals == StorageTotals(bytes: 300, count: 3))
        _ = store.entry(for: "k1")
        try store.store(entry("k4", 98), for: "k4")
        #expect(store.inventory().map(\.key) == ["k3", "k1", "k4"])
        #expect(recorder.events == [StorageEvent(kind: .evict, storageClass: .memory, keyDigest: KeyDigest.hex(of: "k2"),
                                                 bytes: 100, tier: "public", route: "catalog", partition: nil, reason: .byteLimit)])
    }

    @Test func countLimitEvictsLeastRecent() throws {
        let recorder = EventRecorder()
        let store = try MemoryStore(configuration: .init(byteLimit: 10_000, countLimit: 2), onEvent: recorder.handler)
        try store.store(entry("k1", 1), for: "k1")
        try store.store(entry("k2", 1), for: "k2")
        try store.store(entry("k3", 1), for: "k3")
        #expect(store.inventory().map(\.key) == ["k2", "k3"])
        #expect(recorder.events.map(\.reason) == [.countLimit])
        #expect(recorder.events.map(\.keyDigest) == [KeyDigest.hex(of: "k1")])
    }

    @Test func perEntryCapDefaultsToTenPercent() throws {
        let store = try MemoryStore(configuration: .init(byteLimit: 1_000))
        #expect(store.configuration.effectiveEntryByteLimit == 100)
        try store.store(entry("k1", 98), for: "k1")
        #expect(throws: StorageError(.entryTooLarge, "memory entry of 101 bytes exceeds the per-entry cap of 100 bytes")) {
            try store.store(entry("k2", 99), for: "k2")
        }
        #expect(store.totals == StorageTotals(bytes: 100, count: 1))
    }

    @Test func invalidConfigurationIsRefused() {
        #expect(throws: StorageError(.invalidConfiguration, "memory byteLimit, countLimit and entryByteLimit must be positive")) {
            try MemoryStore(configuration: .init(byteLimit: 0))
        }
        #expect(throws: StorageError(.invalidConfiguration, "memory byteLimit, countLimit and entryByteLimit must be positive")) {
            try MemoryStore(configuration: .init(countLimit: 0))
        }
    }

    @Test func bodyIsSharedNotCopied() throws {
        let store = try MemoryStore()
        let body = Sample.bytes(4096)
        try store.store(Sample.entry("k", body: body), for: "k")
        let got = try #require(store.entry(for: "k"))
        let stored = body.withUnsafeBufferPointer { $0.baseAddress }
        let returned = got.body.withUnsafeBufferPointer { $0.baseAddress }
        #expect(stored == returned)
    }

    @Test func storeSetsKeyClassAndSize() throws {
        let store = try MemoryStore()
        try store.store(Sample.entry("other", body: [1, 2, 3]), for: "k")
        let metadata = try #require(store.entry(for: "k")?.metadata)
        #expect(metadata.key == "k")
        #expect(metadata.storageClass == .memory)
        #expect(metadata.bodyByteCount == 3)
        #expect(store.entry(for: "other") == nil)
    }

    @Test func sweepRemovesExpiredAndReports() throws {
        let recorder = EventRecorder()
        let store = try MemoryStore(onEvent: recorder.handler)
        try store.store(entry("k1", 8, expiresAt: 100), for: "k1")
        try store.store(entry("k2", 8, expiresAt: 200), for: "k2")
        try store.store(entry("k3", 8, expiresAt: 100.5), for: "k3")
        #expect(store.sweep(now: 100.5).map(\.key) == ["k1", "k3"])
        #expect(store.inventory().map(\.key) == ["k2"])
        #expect(recorder.events.map(\.kind) == [.expire, .expire])
        #expect(recorder.events.map(\.bytes) == [10, 10])
        #expect(recorder.events.map(\.reason) == [.expired, .expired])
    }

    @Test func removeAndPurgeByPartition() throws {
        let recorder = EventRecorder()
        let store = try MemoryStore(onEvent: recorder.handler)
        try store.store(Sample.entry("a", body: [1], tier: "private", partition: "u1"), for: "a")
        try store.store(Sample.entry("b", body: [2], tier: "private", partition: "u2"), for: "b")
        try store.store(Sample.entry("c", body: [3], tier: "private", partition: "u1"), for: "c")
        #expect(store.removeAll { $0.partition == "u1" }.map(\.key) == ["a", "c"])
        #expect(store.inventory().map(\.key) == ["b"])
        #expect(store.remove("b")?.key == "b")
        #expect(store.remove("b") == nil)
        #expect(store.totals == StorageTotals(bytes: 0, count: 0))
        #expect(recorder.events.isEmpty)
        try store.store(Sample.entry("d", body: [4]), for: "d")
        #expect(store.entry(for: "d")?.body == [4])
    }

    @Test func concurrentAccessKeepsTotalsConsistent() async throws {
        let store = try MemoryStore(configuration: .init(byteLimit: 50_000, countLimit: 300, entryByteLimit: 1_000))
        await withTaskGroup(of: Void.self) { group in
            for worker in 0..<8 {
                group.addTask {
                    for round in 0..<2_000 {
                        let key = "k\((worker * 7 + round) % 500)"
                        if round % 3 == 0 {
                            try? store.store(Sample.entry(key, body: Sample.bytes(100), head: []), for: key)
                        } else if round % 11 == 0 {
                            store.remove(key)
                        } else if let got = store.entry(for: key) {
                            #expect(got.metadata.key == key)
                        }
                    }
                }
            }
        }
        let inventory = store.inventory()
        let totals = store.totals
        #expect(totals.count == inventory.count)
        #expect(totals.bytes == inventory.reduce(0) { $0 + $1.key.utf8.count + 100 })
        #expect(totals.count <= 300)
        #expect(totals.bytes <= 50_000)
    }
}
