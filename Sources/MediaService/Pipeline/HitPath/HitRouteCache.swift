import Synchronization

/// Raw request target → ``HitRoute`` and the group's store key last read for it, at most
/// ``capacity`` targets (all are forgotten when a new one would exceed it).
final class HitRouteCache: Sendable {
    /// One target's admission and the store key of its group.
    struct Slot: Sendable {
        let route: HitRoute
        /// The group's only store key when the variants index held exactly one at ``generation``.
        var storeKey: String?
        /// The variants index generation ``storeKey`` was read at, or -1 before the first read.
        var generation: Int
    }

    static let capacity = 4096
    private let table = Mutex<[String: Slot]>([:])

    func slot(for target: String) -> Slot? {
        table.withLock { $0[target] }
    }

    func insert(_ route: HitRoute, for target: String) {
        table.withLock { table in
            if table.count >= Self.capacity && table[target] == nil { table.removeAll(keepingCapacity: true) }
            table[target] = Slot(route: route, storeKey: nil, generation: -1)
        }
    }

    /// Records the group's store key read at `generation` for `target`, unless a later one is kept.
    func remember(storeKey: String?, generation: Int, for target: String) {
        table.withLock { table in
            guard let slot = table[target], slot.generation < generation else { return }
            table[target] = Slot(route: slot.route, storeKey: storeKey, generation: generation)
        }
    }

    /// The number of targets kept.
    var count: Int { table.withLock { $0.count } }
}
