import Synchronization

/// The entries read from files that are too large for a hot copy, shared for as long as someone holds them: a
/// table of weak references by store key. While any response that is still being written holds an entry (through
/// ``StoredEntry/owner``), the next hit of the same key gets that same buffer instead of reading and verifying the
/// file again; once the last holder lets go, the buffer is freed and the table forgets it (hardening item 3:
/// memory grows by one copy per large object in flight, not one per reader).
///
/// Not a store: nothing is kept here that nobody holds, it has no budget to enforce (what it shares is already
/// pinned by its readers), and it is never audited. Whoever removes or replaces a key in the file stores removes
/// it here too. Thread-safe (one `Mutex`).
/// - Complexity: O(1) ``entry(for:)``, ``keep(_:for:)`` and ``remove(_:)``; O(n) ``removeAll(where:)`` and
///   ``sweep()``.
public final class SharedEntries: Sendable {
    private struct Slot {
        weak var owner: AnyObject?
    }

    private let slots = Mutex<[String: Slot]>([:])

    public init() {}

    /// The entry kept for `key` that someone still holds, or `nil`.
    public func entry(for key: String) -> StoredEntry? {
        slots.withLock { slots in
            guard let slot = slots[key] else { return nil }
            guard let owner = slot.owner, let entry = StoredEntry(owner: owner) else {
                slots[key] = nil
                return nil
            }
            return entry
        }
    }

    /// Shares `entry` under `key` for as long as someone holds it (replacing what was there).
    public func keep(_ entry: StoredEntry, for key: String) {
        let owner = entry.owner
        slots.withLock { $0[key] = Slot(owner: owner) }
    }

    /// Forgets `key` (a holder keeps its buffer; the next reader reads the file).
    public func remove(_ key: String) {
        _ = slots.withLock { $0.removeValue(forKey: key) }
    }

    /// Forgets every key whose held entry's metadata matches `predicate`, and every key nobody holds.
    public func removeAll(where predicate: (EntryMetadata) -> Bool) {
        sweep()
        let held: [(key: String, metadata: EntryMetadata)] = slots.withLock { slots in
            slots.compactMap { key, slot in slot.owner.flatMap { StoredEntry(owner: $0) }.map { (key, $0.metadata) } }
        }
        let matching = held.filter { predicate($0.metadata) }.map(\.key)
        slots.withLock { slots in for key in matching { slots[key] = nil } }
    }

    /// Forgets the keys nobody holds any more.
    public func sweep() {
        slots.withLock { slots in slots = slots.filter { $0.value.owner != nil } }
    }

    /// The number of keys remembered (held or not yet swept).
    public var count: Int { slots.withLock { $0.count } }
}
