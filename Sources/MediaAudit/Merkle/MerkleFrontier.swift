import MediaCrypto

/// The right edge of a growing RFC 9162 tree (``MerkleTree``): the roots of its perfect subtrees, largest first, one per
/// set bit of its size. Appending a leaf costs one hash per carry, and the root of the whole tree at any size costs
/// one hash per subtree, so a log can commit to every record it wrote without keeping them.
public struct MerkleFrontier: Hashable, Sendable {
    /// The number of leaves appended.
    public private(set) var size: Int = 0
    /// The roots of the perfect subtrees, largest (leftmost) first, held inline (no allocation per node).
    private var nodes: [InlineSHA256Digest] = []

    /// The roots of the perfect subtrees, largest (leftmost) first.
    public var subtrees: [SHA256Digest] { nodes.map(\.digest) }

    public init() {}

    /// The frontier of a tree of `size` leaves whose perfect subtrees' roots are `subtrees`, largest first; `nil` unless
    /// there is one per set bit of `size`.
    public init?(size: Int, subtrees: [SHA256Digest]) {
        guard size >= 0, subtrees.count == size.nonzeroBitCount, subtrees.allSatisfy({ $0.bytes.count == 32 }) else { return nil }
        (self.size, self.nodes) = (size, subtrees.map(InlineSHA256Digest.init))
    }

    /// Appends the leaf hash `leaf` (``MerkleTree/leafHash(_:)``).
    public mutating func append(_ leaf: SHA256Digest) {
        append(inline: InlineSHA256Digest(leaf))
    }

    /// Appends the leaf hash `leaf` held inline (``MerkleTree/leafHash(inline:)``).
    public mutating func append(inline leaf: InlineSHA256Digest) {
        var node = leaf
        var carried = size
        // Each trailing 1 bit of the old size is a perfect subtree of the same height as `node`: they merge.
        while carried & 1 == 1 {
            node = MerkleTree.nodeHash(nodes.removeLast(), node)
            carried >>= 1
        }
        nodes.append(node)
        size += 1
    }

    /// MTH of the leaves appended so far (``MerkleTree/emptyRoot`` for none).
    public var root: SHA256Digest {
        guard var node = nodes.last else { return MerkleTree.emptyRoot }
        for subtree in nodes.dropLast().reversed() { node = MerkleTree.nodeHash(subtree, node) }
        return node.digest
    }
}
