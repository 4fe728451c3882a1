import Synchronization

/// Raw request target → ``HitRoute`` plus what the last fast hit on it learned (store key, entry,
/// field texts), at most ``capacity`` targets (all are forgotten when a new one would exceed it).
///
/// Everything a slot remembers is checked before use, so slots written by racing threads in any
/// order stay correct: the store key against the variants index generation, the entry against the
/// stored head's identity, the texts against the age and freshness limit they were made for.
final class HitRouteCache: Sendable {
    /// One target's admission and what its last fast hit learned.
    struct Slot: Sendable {
        let route: HitRoute
        /// The group's only store key when the variants index held exactly one at ``generation``.
        var storeKey: String?
        /// The variants index generation ``storeKey`` was read at, or -1 before the first read.
        var generation: Int = -1
        /// The entry data last served (not kept alive by the slot: it lives with its stored entry).
        weak var hit: HitEntry?
        /// `Age` and `Cache-Status` values last sent, for ``textsAge`` and ``textsLimit``.
        var texts: (age: String, cacheStatus: String)?
        var textsAge: Int64 = -1
        var textsLimit: Int64 = -1

        init(route: HitRoute) {
            self.route = route
        }
    }

    static let capacity = 4096
    private let table = Mutex<[String: Slot]>([:])

    func slot(for target: String) -> Slot? {
        table.withLock { $0[target] }
    }

    /// Keeps `slot` for `target` (replacing what is there; forgetting every target first when full).
    func keep(_ slot: Slot, for target: String) {
        table.withLock { table in
            if table.count >= Self.capacity && table[target] == nil { table.removeAll(keepingCapacity: true) }
            table[target] = slot
        }
    }

    /// The number of targets kept.
    var count: Int { table.withLock { $0.count } }
}
