import MediaStorage
import Synchronization

/// A tier's in-memory copies of its file entries: hot copies (a ``MemoryStore``, for entries up to its per-entry
/// cap) and, for larger ones, ``SharedEntries`` (kept while a response holds them). Not audited: a cache of the
/// files, which stay the stored responses.
///
/// Copies never outlive what they copy. Every removal and replacement bumps a generation under the same lock as
/// the copies, and a copy made from a file read is kept only if no removal came since the read began
/// (``read(_:from:)``): whichever way a purge and a concurrent read interleave, the purged body is not left in
/// memory. Thread-safe.
final class FileCopies: Sendable {
    /// The hot copies.
    let hot: MemoryStore
    /// The large entries shared while held.
    let shared: SharedEntries
    private let generation = Mutex<UInt64>(0)

    /// - Parameter hotBytes: the hot copies' budget; one copy may take a quarter of it.
    init(hotBytes: Int) throws {
        hot = try MemoryStore(configuration: .init(byteLimit: hotBytes, entryByteLimit: max(1, hotBytes / 4)))
        shared = SharedEntries()
    }

    /// The copy of `key`, hot or shared, or `nil`.
    func entry(for key: String) -> StoredEntry? {
        hot.entry(for: key) ?? shared.entry(for: key)
    }

    /// The entry `read` returns for `key` (a file store's read), with a copy of it kept unless a removal or
    /// replacement came while it was read.
    func read(_ key: String, from read: () -> StoredEntry?) -> StoredEntry? {
        let before = generation.withLock { $0 }
        guard let entry = read() else { return nil }
        generation.withLock { current in
            if current == before { keep(entry, for: key) }
        }
        return entry
    }

    /// Replaces `key`'s copy with `entry` (a stored response's new body).
    func replace(_ key: String, with entry: StoredEntry) {
        generation.withLock { current in
            current &+= 1
            forget(key)
            keep(entry, for: key)
        }
    }

    /// Removes `key`'s copies.
    func remove(_ key: String) {
        generation.withLock { current in
            current &+= 1
            forget(key)
        }
    }

    /// Removes the copies whose metadata matches `predicate`.
    func removeAll(where predicate: (EntryMetadata) -> Bool) {
        generation.withLock { current in current &+= 1 }
        hot.removeAll(where: predicate)
        shared.removeAll(where: predicate)
    }

    /// Removes expired hot copies and forgets shared entries nobody holds.
    func sweep(now: Double) {
        hot.sweep(now: now)
        shared.sweep()
    }

    private func keep(_ entry: StoredEntry, for key: String) {
        if hot.accepts(entry, for: key) {
            try? hot.store(entry, for: key)
        } else {
            shared.keep(entry, for: key)
        }
    }

    private func forget(_ key: String) {
        hot.remove(key)
        shared.remove(key)
    }
}
