import MediaCrypto

/// The Merkle tree (``MerkleTree``, RFC 9162) over an audit log's records: leaf `i` is the record with `seq` `i + 1`,
/// hashed over its line as written (the canonical JSON with its `hash`, without the newline). Read from the log's
/// files; a torn last line is not a leaf.
public struct AuditTree: Sendable {
    /// The leaves' hashes, in `seq` order.
    public let leaves: [SHA256Digest]

    public init(leaves: [SHA256Digest]) {
        self.leaves = leaves
    }

    /// The tree of the audit folder `directory`.
    /// - Throws: ``AuditError`` `io` when a file cannot be read; `corrupt-log` when the log was pruned (its first
    ///   records are gone, so the tree cannot be rebuilt from its files) or a line is not a record, or the records'
    ///   `seq` do not run 1, 2, ….
    public static func read(directory: String) throws -> AuditTree {
        if let pruned = try AuditCheckpoint.read(directory: directory) {
            throw AuditError(.corruptLog, "the log was pruned up to seq \(pruned.seq): the tree is rebuilt from every record since seq 1")
        }
        var leaves: [SHA256Digest] = []
        try AuditReader.forEachRecord(directory: directory) { line, record in
            guard record.seq == leaves.count + 1 else {
                throw AuditError(.corruptLog, "\(line.file) line \(line.number): seq \(record.seq) where \(leaves.count + 1) was due")
            }
            leaves.append(MerkleTree.leafHash(line.text.utf8))
        }
        return AuditTree(leaves: leaves)
    }

    /// The number of leaves.
    public var size: Int { leaves.count }

    /// The checkpoint of the first `size` leaves.
    /// - Precondition: `0 <= size <= self.size`.
    public func checkpoint(size: Int, origin: String) -> TreeCheckpoint {
        TreeCheckpoint(origin: origin, size: size, root: MerkleTree.root(leaves[..<size]))
    }
}
