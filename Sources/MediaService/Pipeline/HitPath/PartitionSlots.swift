import Synchronization

/// What fast hits on one target of a bearer tier learned, one ``HitSlot`` per partition: found only with the
/// partition (the keyed digest of the request's own token), so a request never sees what another partition's request
/// learned. Held by the target's ``HitRoute``, so a reload (new routes) forgets it with the route; at most
/// ``capacity`` partitions (all are forgotten when a new one would exceed it).
final class PartitionSlots: Sendable {
    static let capacity = 64

    /// A partition as a table key. A partition is 64 hex digits of an HMAC under a per-process key, which no client can
    /// choose: its first 16 digits are hashed (uniform already; hashing all 64 would cost four times as much), and
    /// equality still compares all of them.
    struct Key: Hashable {
        let partition: String

        func hash(into hasher: inout Hasher) {
            var text = partition
            text.withUTF8 { bytes in hasher.combine(bytes: UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes.prefix(16)))) }
        }

        static func == (lhs: Key, rhs: Key) -> Bool { lhs.partition == rhs.partition }
    }

    private let table = Mutex<[Key: HitSlot]>([:])

    /// The slot learned for `partition`, if any.
    func slot(for partition: String) -> HitSlot? {
        table.withLock { $0[Key(partition: partition)] }
    }

    /// Keeps `slot` for `partition`, replacing what is there.
    func keep(_ slot: HitSlot, for partition: String) {
        let key = Key(partition: partition)
        table.withLock { table in
            if table.count >= Self.capacity && table[key] == nil { table.removeAll(keepingCapacity: true) }
            table[key] = slot
        }
    }

    /// The number of partitions kept.
    var count: Int { table.withLock { $0.count } }
}
