import Synchronization

/// Full tiles of the audit log's tree (``AuditTiles``), kept in memory once made: a full tile never changes, so a tile
/// above it is made from the cached hashes of the full tiles below instead of from the entries again (a level-2 hash
/// from 256 cached hashes, not 65,536 entries). Holds at most ``capacity`` tiles (8 KiB each), dropping the oldest.
public final class AuditTileCache: Sendable {
    /// Tiles kept at most: 2,048 (16 MiB).
    public static let defaultCapacity = 2_048

    struct Key: Hashable {
        var level: Int
        var index: Int
    }

    public let capacity: Int
    private let tiles = Mutex<(bytes: [Key: [UInt8]], order: [Key])>(([:], []))

    public init(capacity: Int = AuditTileCache.defaultCapacity) {
        self.capacity = max(1, capacity)
    }

    /// The bytes of full tile `index` of `level` (256 hashes), if kept.
    func tile(level: Int, index: Int) -> [UInt8]? {
        tiles.withLock { $0.bytes[Key(level: level, index: index)] }
    }

    /// Keeps the bytes of full tile `index` of `level`, dropping the oldest tile when full.
    func keep(_ bytes: [UInt8], level: Int, index: Int) {
        tiles.withLock { tiles in
            let key = Key(level: level, index: index)
            guard tiles.bytes.updateValue(bytes, forKey: key) == nil else { return }
            tiles.order.append(key)
            if tiles.order.count > capacity { tiles.bytes[tiles.order.removeFirst()] = nil }
        }
    }

    /// The number of tiles kept.
    public var count: Int { tiles.withLock { $0.bytes.count } }
}
