import Dispatch
import Foundation
@testable import MediaStorage
import Synchronization
import Testing

/// Issue 16 item 6: a memory store's `evict` of an old entry is never reported after the `store` record of
/// the key's new entry. The store's own events and the `record` of ``MediaStoring/store(_:for:recordingFirst:)``
/// both happen under its lock, so an audit log written from them lists each key's changes in order.
@Suite struct MemoryStoreOrderingTests {
    /// The store a handler reports for, set once the store exists (handlers are made before it).
    final class StoreBox: @unchecked Sendable {
        var store: MemoryStore?
        /// Whether the store's lock is held right now (by this thread: handlers and `record` run on the caller's).
        var isLocked: Bool { store?.state.withLockIfAvailable { _ in true } == nil }
    }

    private func entry(_ key: String, _ marker: UInt8) -> StoredEntry {
        Sample.entry(key, body: [marker], head: [])
    }

    @Test func recordAndEvictionsRunUnderTheStoresLock() throws {
        let box = StoreBox()
        let seen = Mutex<[String]>([])
        let store = try MemoryStore(configuration: .init(byteLimit: 10_000, countLimit: 1)) { event in
            seen.withLock { $0.append("\(event.kind.rawValue) \(event.storeKey ?? "?") locked=\(box.isLocked)") }
        }
        box.store = store
        try store.store(entry("k1", 1), for: "k1")
        try store.store(entry("k2", 2), for: "k2") {
            seen.withLock { $0.append("record k2 locked=\(box.isLocked)") }
        }
        store.sweep(now: 3_000)
        #expect(!box.isLocked)
        #expect(seen.withLock { $0 } == ["record k2 locked=true", "evict k1 locked=true", "expire k2 locked=true"])
    }

    /// The interleaving of the bug, injected with gates: thread B's store evicts k1's old entry and is held in
    /// its event handler; thread A then stores k1 again. A's `store` record must come after B's `evict`, and
    /// the log's last word on k1 (store) must match what the store holds.
    @Test func anEvictionHeldInItsHandlerIsRecordedBeforeTheReplacementsStore() throws {
        let log = Mutex<[String]>([])
        let inHandler = DispatchSemaphore(value: 0)
        let gate = DispatchSemaphore(value: 0)
        let store = try MemoryStore(configuration: .init(byteLimit: 10_000, countLimit: 2)) { event in
            let key = event.storeKey ?? "?"
            if key == "k1" && event.kind == .evict {
                inHandler.signal()
                gate.wait()
            }
            log.withLock { $0.append("\(event.kind.rawValue) \(key)") }
        }
        try store.store(entry("k1", 1), for: "k1")
        try store.store(entry("y", 2), for: "y")
        let done = DispatchGroup()
        done.enter()
        Thread {
            defer { done.leave() }
            try? store.store(entry("x", 3), for: "x")  // evicts k1 (least recently used)
        }.start()
        inHandler.wait()
        let started = DispatchSemaphore(value: 0)
        done.enter()
        Thread {
            defer { done.leave() }
            started.signal()
            try? store.store(entry("k1", 4), for: "k1") { log.withLock { $0.append("store k1") } }
        }.start()
        started.wait()
        gate.signal()
        done.wait()
        #expect(log.withLock { $0 } == ["evict k1", "store k1", "evict y"])
        #expect(store.entry(for: "k1")?.body == [4])
        #expect(store.inventory().map(\.key) == ["x", "k1"])
    }
}
