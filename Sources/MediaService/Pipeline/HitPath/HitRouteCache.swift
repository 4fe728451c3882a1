import Synchronization

/// Raw request target → ``HitSlot`` (the target's admission plus what its last fast hit learned), at
/// most ``capacity`` targets (all are forgotten when a new one would exceed it).
final class HitRouteCache: Sendable {
    static let capacity = 4096
    private let table = Mutex<[String: HitSlot]>([:])

    func slot(for target: String) -> HitSlot? {
        table.withLock { $0[target] }
    }

    /// Keeps `slot` for `target` (replacing what is there; forgetting every target first when full).
    func keep(_ slot: HitSlot, for target: String) {
        table.withLock { table in
            if table.count >= Self.capacity && table[target] == nil { table.removeAll(keepingCapacity: true) }
            table[target] = slot
        }
    }

    /// The number of targets kept.
    var count: Int { table.withLock { $0.count } }
}
