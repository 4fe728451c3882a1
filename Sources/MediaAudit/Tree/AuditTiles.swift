import MediaCrypto

/// The audit log's Merkle tree as C2SP tlog-tiles resources (https://c2sp.org/tlog-tiles), made from `tree-entries`
/// (``AuditEntryFile``), so they outlive `audit prune` as the entries do:
/// - a tile at level `L`: its hashes, 32 bytes each; hash `i` of tile `N` is MTH of entries
///   `[(N·256 + i)·256^L, (N·256 + i + 1)·256^L)`, a leaf hash at level 0;
/// - an entry bundle: its entries (each record's `hash`), each as a big-endian `uint16` length (32) and the bytes.
///
/// A resource is made only when `tree-entries` holds every entry it spans; full ones never change. A tile above level 0
/// is made from the full tiles below it, kept in an ``AuditTileCache`` when one is given (the admin listener's).
public enum AuditTiles {
    /// The latest signed checkpoint the log wrote (`tree-checkpoint`, ``AuditTreeWriter``), or `nil` before the first.
    /// - Throws: ``AuditError`` `io`.
    public static func checkpoint(directory: String) throws -> [UInt8]? {
        try AuditFiles.read(directory + "/" + AuditTreeWriter.checkpointName)
    }

    /// The bytes of `tile` in the audit folder `directory`, or `nil` when the log does not hold every entry it spans.
    /// - Parameter cache: full tiles made before (and where those made now are kept), or `nil`.
    /// - Throws: ``AuditError`` `io`.
    public static func bytes(_ tile: TilePath, directory: String, cache: AuditTileCache? = nil) throws -> [UInt8]? {
        // Entries per hash (per entry in a bundle), and the end of the span; a span past any log is no tile.
        var perHash = 1
        for _ in 0..<(tile.level ?? 0) {
            let (product, overflow) = perHash.multipliedReportingOverflow(by: TilePath.width)
            guard !overflow else { return nil }
            perHash = product
        }
        let (firstHash, overflow) = tile.index.multipliedReportingOverflow(by: TilePath.width)
        guard !overflow, firstHash <= Int.max - tile.width else { return nil }
        let (end, endOverflow) = (firstHash + tile.width).multipliedReportingOverflow(by: perHash)
        guard !endOverflow, end <= (try AuditEntryFile.count(directory: directory)) else { return nil }
        guard let level = tile.level else {
            let start = tile.index * TilePath.width
            guard let entries = try AuditEntryFile.read(directory: directory, range: start..<(start + tile.width)) else {
                return nil
            }
            var out: [UInt8] = []
            out.reserveCapacity(entries.count * 34)
            for entry in entries { out += [0, 32] + entry.bytes }
            return out
        }
        if tile.isFull { return try fullTile(level: level, index: tile.index, directory: directory, cache: cache) }
        return try hashBytes(level: level, first: tile.index * TilePath.width, count: tile.width, directory: directory,
                             cache: cache)
    }

    /// Full tile `index` of `level`: its 256 hashes' bytes, from `cache` when kept there, else made and kept.
    static func fullTile(level: Int, index: Int, directory: String, cache: AuditTileCache?) throws -> [UInt8]? {
        if let kept = cache?.tile(level: level, index: index) { return kept }
        guard let out = try hashBytes(level: level, first: index * TilePath.width, count: TilePath.width,
                                      directory: directory, cache: cache) else { return nil }
        cache?.keep(out, level: level, index: index)
        return out
    }

    /// The bytes of `count` hashes of `level` from hash `first` on: leaf hashes of the entries at level 0, else each the
    /// root of the full tile below (``hash(level:index:directory:cache:)``); `nil` when the log does not reach them.
    static func hashBytes(level: Int, first: Int, count: Int, directory: String, cache: AuditTileCache?) throws -> [UInt8]? {
        if level == 0 {
            return try AuditEntryFile.read(directory: directory, range: first..<(first + count))?
                .flatMap { MerkleTree.leafHash(digest: $0).bytes }
        }
        var out: [UInt8] = []
        out.reserveCapacity(count * 32)
        for index in first..<(first + count) {
            guard let hash = try hash(level: level, index: index, directory: directory, cache: cache) else { return nil }
            out += hash.bytes
        }
        return out
    }

    /// Hash `index` of `level` ≥ 1: MTH of its run of 256^level entries, the root of full tile `index` of the level below.
    static func hash(level: Int, index: Int, directory: String, cache: AuditTileCache?) throws -> SHA256Digest? {
        guard let below = try fullTile(level: level - 1, index: index, directory: directory, cache: cache) else { return nil }
        let hashes = stride(from: 0, to: below.count, by: 32).map { SHA256Digest(bytes: Array(below[$0..<($0 + 32)])) }
        return MerkleTree.root(hashes[...])
    }
}
