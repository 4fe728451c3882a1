import Synchronization

/// Source group key (URL + partition) → store keys of the variants derived from it, so a source that
/// changes takes its variants along (docs/variants.md). Kept in step with ``VariantIndex`` by
/// ``TierRuntime/addVariant(_:)`` and ``TierRuntime/removeVariant(_:)``; non-variant keys never enter it.
final class DerivedIndex: Sendable {
    private let sources = Mutex<[String: Set<String>]>([:])

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
