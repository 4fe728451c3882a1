import Synchronization

/// The policy snapshot in force, and raw request target → ``HitSlot`` (the target's admission under that
/// snapshot plus what its last fast hit learned), at most ``capacity`` targets (all are forgotten when a
/// new one would exceed it). Both sit under one lock, so a fast hit reads its slot and the snapshot the
/// slot belongs to in one acquisition; a reload (``replace(with:)``) swaps the snapshot and forgets every
/// slot at once.
final class HitRouteCache: Sendable {
    static let capacity = 4096
    private struct State: @unchecked Sendable {
        var snapshot: PolicySnapshot
        var table: [String: HitSlot]
    }
    private let state: Mutex<State>

    init(snapshot: PolicySnapshot) {
        state = Mutex(State(snapshot: snapshot, table: [:]))
    }

    /// The snapshot in force.
    var snapshot: PolicySnapshot { state.withLock { $0.snapshot } }

    /// The snapshot in force and the slot kept for `target` under it, if any.
    func lookup(_ target: String) -> (snapshot: PolicySnapshot, slot: HitSlot?) {
        state.withLock { ($0.snapshot, $0.table[target]) }
    }

    func slot(for target: String) -> HitSlot? {
        state.withLock { $0.table[target] }
    }

    /// Keeps `slot` for `target` (replacing what is there; forgetting every target first when full), unless
    /// `snapshot` is no longer the one in force (the slot was made under replaced policies).
    func keep(_ slot: HitSlot, for target: String, under snapshot: PolicySnapshot) {
        state.withLock { state in
            guard state.snapshot === snapshot else { return }
            if state.table.count >= Self.capacity && state.table[target] == nil { state.table.removeAll(keepingCapacity: true) }
            state.table[target] = slot
        }
    }

    /// Puts `snapshot` in force and forgets every slot; returns the snapshot it replaced.
    @discardableResult
    func replace(with snapshot: PolicySnapshot) -> PolicySnapshot {
        state.withLock { state in
            let old = state.snapshot
            state.snapshot = snapshot
            state.table.removeAll()
            return old
        }
    }

    /// The number of targets kept.
    var count: Int { state.withLock { $0.table.count } }
}
