import MediaCrypto

/// The audit log's Merkle tree as C2SP tlog-tiles resources (https://c2sp.org/tlog-tiles), made from `tree-entries`
/// (``AuditEntryFile``), so they outlive `audit prune` as the entries do:
/// - a tile at level `L`: its hashes, 32 bytes each; hash `i` of tile `N` is MTH of entries
///   `[(N·256 + i)·256^L, (N·256 + i + 1)·256^L)`, a leaf hash at level 0;
/// - an entry bundle: its entries (each record's `hash`), each as a big-endian `uint16` length (32) and the bytes.
///
/// A resource is made only when `tree-entries` holds every entry it spans; full ones never change.
public enum AuditTiles {
    /// The latest signed checkpoint the log wrote (`tree-checkpoint`, ``AuditTreeWriter``), or `nil` before the first.
    /// - Throws: ``AuditError`` `io`.
    public static func checkpoint(directory: String) throws -> [UInt8]? {
        try AuditFiles.read(directory + "/" + AuditTreeWriter.checkpointName)
    }

    /// The bytes of `tile` in the audit folder `directory`, or `nil` when the log does not hold every entry it spans.
    /// - Throws: ``AuditError`` `io`.
    public static func bytes(_ tile: TilePath, directory: String) throws -> [UInt8]? {
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
        guard let hashes = try hashes(level: level, first: tile.index * TilePath.width, count: tile.width,
                                      directory: directory) else { return nil }
        return hashes.flatMap(\.bytes)
    }

    /// Entries read at a time while hashing a tile above level 0: 65,536 (2 MiB), one level-2 hash.
    static let chunkEntries = 65_536

    /// The `count` hashes of `level` from hash `first` on: MTH of each run of 256^level entries (a perfect subtree).
    /// Level 0 reads its entries at once; a higher level streams each run's entries in chunks of ``chunkEntries``
    /// through a frontier (inline digests), so a tile costs its hashes and a few reads, whatever its level.
    static func hashes(level: Int, first: Int, count: Int, directory: String) throws -> [SHA256Digest]? {
        if level == 0 {
            return try AuditEntryFile.read(directory: directory, range: first..<(first + count))?
                .map { MerkleTree.leafHash(digest: $0) }
        }
        var span = 1
        for _ in 0..<level { span *= TilePath.width }
        var out: [SHA256Digest] = []
        out.reserveCapacity(count)
        for index in first..<(first + count) {
            var frontier = MerkleFrontier()
            var next = index * span
            let end = next + span
            while next < end {
                let stop = min(next + chunkEntries, end)
                guard let entries = try AuditEntryFile.read(directory: directory, range: next..<stop) else { return nil }
                for entry in entries { frontier.append(inline: MerkleTree.leafHash(inline: InlineSHA256Digest(entry))) }
                next = stop
            }
            out.append(frontier.root)
        }
        return out
    }
}
