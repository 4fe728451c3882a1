import MediaCore
import MediaCrypto

/// The Merkle tree (``MerkleTree``, RFC 9162) over an audit log's records: leaf `i` is the record with `seq` `i + 1`.
/// Its entry is the record's `hash`, 32 bytes: SHA-256 over the record's canonical JSON, `prev` included
/// (docs/audit-format.md), so a leaf commits to the record's canonical bytes and to the chain before it, and the tree
/// costs the writer one hash of one block per record besides the chain's (``leafHash(_:)``).
///
/// Read from the log's records; the entries of records that `audit prune` removed come from `tree-entries`
/// (``AuditEntryFile``), which the writer keeps. A torn last line is not a leaf.
public struct AuditTree: Sendable {
    /// The leaves' hashes, in `seq` order.
    public let leaves: [SHA256Digest]

    public init(leaves: [SHA256Digest]) {
        self.leaves = leaves
    }

    /// The leaf hash of the record whose `hash` is `recordHash`: `SHA-256(0x00 || recordHash)`.
    public static func leafHash(_ recordHash: AuditDigest) -> SHA256Digest {
        MerkleTree.leafHash(digest: AuditEntryFile.entry(recordHash))
    }

    /// The tree of the audit folder `directory`; `visiting` sees each record read, in `seq` order (so a caller that needs
    /// the records too reads the log once).
    /// - Throws: ``AuditError`` `io` when a file cannot be read; `corrupt-log` when a line is not a record, the
    ///   records' `seq` do not run 1, 2, …, or the log was pruned and `tree-entries` does not hold the entries of the
    ///   removed records.
    public static func read(directory: String, visiting: (AuditRecord) throws -> Void = { _ in }) throws -> AuditTree {
        var leaves: [SHA256Digest] = []
        if let pruned = try AuditCheckpoint.read(directory: directory) {
            let kept = try AuditEntryFile.read(directory: directory)
            guard kept.count >= pruned.seq else {
                throw AuditError(.corruptLog, "the log was pruned up to seq \(pruned.seq) and \(AuditEntryFile.name) holds \(kept.count) entries: the tree needs every record's entry since seq 1")
            }
            guard kept[pruned.seq - 1] == AuditEntryFile.entry(pruned.hash) else {
                throw AuditError(.corruptLog, "\(AuditEntryFile.name) entry \(pruned.seq - 1) is not the hash of seq \(pruned.seq), the last pruned record")
            }
            leaves = kept.prefix(pruned.seq).map { MerkleTree.leafHash(digest: $0) }
        }
        try AuditReader.forEachRecord(directory: directory) { line, record in
            guard record.seq == leaves.count + 1 else {
                throw AuditError(.corruptLog, "\(line.file) line \(line.number): seq \(record.seq) where \(leaves.count + 1) was due")
            }
            leaves.append(leafHash(record.hash))
            try visiting(record)
        }
        return AuditTree(leaves: leaves)
    }

    /// The tree of the first `size` records from `tree-entries` alone (32 bytes a record, no record parsed): what the
    /// writer's own process reads right after a checkpoint, which made those entries durable.
    /// - Throws: ``AuditError`` `io`; `corrupt-log` when the file holds fewer than `size` entries.
    public static func read(directory: String, entries size: Int) throws -> AuditTree {
        guard let entries = try AuditEntryFile.read(directory: directory, range: 0..<size) else {
            throw AuditError(.corruptLog, "\(AuditEntryFile.name) holds fewer than \(size) entries")
        }
        return AuditTree(leaves: entries.map { MerkleTree.leafHash(digest: $0) })
    }

    /// The number of leaves.
    public var size: Int { leaves.count }

    /// The checkpoint of the first `size` leaves.
    /// - Precondition: `0 <= size <= self.size`.
    public func checkpoint(size: Int, origin: String) -> TreeCheckpoint {
        TreeCheckpoint(origin: origin, size: size, root: MerkleTree.root(leaves[..<size]))
    }
}
