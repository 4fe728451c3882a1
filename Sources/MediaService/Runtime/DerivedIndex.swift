import Synchronization

/// Source group key (URL + partition) → store keys of the variants derived from it, so a source that
/// changes takes its variants along (docs/variants.md). Kept in step with ``StoredResponseIndex`` by
/// ``TierRuntime/indexStoredResponse(_:)`` and ``TierRuntime/unindexStoredResponse(_:)``; non-variant keys never enter it.
final class DerivedIndex: Sendable {
    private let sources = Mutex<[String: Set<String>]>([:])
    /// Change counters of source groups, hashed into a fixed number of buckets (bounded memory; a collision only
    /// makes a derivation skip its store once, reason `source-changed-during-derivation`).
    private let generations = Mutex<[Int]>(Array(repeating: 0, count: DerivedIndex.generationBuckets))
    static let generationBuckets = 4096

    /// Records that `sourceGroup`'s representation changed (a new response stored, or invalidated).
    func bumpGeneration(of sourceGroup: String) {
        let bucket = Self.bucket(sourceGroup)
        generations.withLock { $0[bucket] &+= 1 }
    }

    /// The change counter of `sourceGroup` (compare two reads: equal when it has not changed in between).
    func generation(of sourceGroup: String) -> Int {
        let bucket = Self.bucket(sourceGroup)
        return generations.withLock { $0[bucket] }
    }

    private static func bucket(_ group: String) -> Int {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in group.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return Int(hash % UInt64(generationBuckets))
    }

    func add(_ storeKey: String) {
        guard let source = CacheKey.sourceGroup(ofVariantStoreKey: storeKey) else { return }
        sources.withLock { _ = $0[source, default: []].insert(storeKey) }
    }

    func remove(_ storeKey: String) {
        guard let source = CacheKey.sourceGroup(ofVariantStoreKey: storeKey) else { return }
        sources.withLock { index in
            index[source]?.remove(storeKey)
            if index[source]?.isEmpty == true { index[source] = nil }
        }
    }

    /// The store keys of the variants of `sourceGroup`, sorted.
    func variants(of sourceGroup: String) -> [String] {
        sources.withLock { Array($0[sourceGroup] ?? []) }.sorted()
    }

    /// The number of variant keys indexed (tests).
    var count: Int { sources.withLock { $0.values.reduce(0) { $0 + $1.count } } }
}
