import Synchronization

/// Group key (primary key + partition) → store keys of its stored responses, one per secondary key (RFC 9111 §4.1),
/// with a generation bumped by every change.
///
/// A class so that the stores' event handlers can drop evicted, expired, corrupt and shredded keys
/// while the ``TierRuntime`` that owns the index is still being initialised.
final class StoredResponseIndex: Sendable {
    let groups = Mutex<[String: Set<String>]>([:])
    /// Bumped (under the index lock) by every change of the index, so a hit path may reuse the store
    /// keys it read at an equal generation.
    let generation = Atomic<Int>(0)

    func add(_ storeKey: String) {
        let group = CacheKey.group(ofStoreKey: storeKey)
        groups.withLock { index in
            index[group, default: []].insert(storeKey)
            generation.add(1, ordering: .releasing)
        }
    }

    func remove(_ storeKey: String) {
        let group = CacheKey.group(ofStoreKey: storeKey)
        groups.withLock { index in
            index[group]?.remove(storeKey)
            if index[group]?.isEmpty == true { index[group] = nil }
            generation.add(1, ordering: .releasing)
        }
    }

    /// The number of store keys indexed (tests: evicted keys leave the index).
    var count: Int { groups.withLock { $0.values.reduce(0) { $0 + $1.count } } }
}
