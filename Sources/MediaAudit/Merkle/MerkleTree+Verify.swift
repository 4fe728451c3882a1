import MediaCrypto

extension MerkleTree {
    /// Whether `proof` shows the leaf `leaf` at `index` in the tree of `size` leaves whose root is `root` (RFC 9162
    /// §2.1.3.2).
    public static func verifyInclusion(leaf: SHA256Digest, index: Int, size: Int, proof: [SHA256Digest],
                                       root: SHA256Digest) -> Bool {
        guard index >= 0, index < size else { return false }
        var fn = index, sn = size - 1
        var r = leaf
        for p in proof {
            guard sn != 0 else { return false }
            if fn & 1 == 1 || fn == sn {
                r = nodeHash(p, r)
                if fn & 1 == 0 {
                    while fn & 1 == 0 && fn != 0 {
                        fn >>= 1
                        sn >>= 1
                    }
                }
            } else {
                r = nodeHash(r, p)
            }
            fn >>= 1
            sn >>= 1
        }
        return sn == 0 && r == root
    }

    /// Whether `proof` shows that the tree of `newSize` leaves with root `newRoot` extends the tree of `oldSize`
    /// leaves with root `oldRoot` (RFC 9162 §2.1.4.2). Equal sizes need an empty proof and equal roots.
    public static func verifyConsistency(oldSize: Int, oldRoot: SHA256Digest, newSize: Int, newRoot: SHA256Digest,
                                         proof: [SHA256Digest]) -> Bool {
        guard oldSize > 0, oldSize <= newSize else { return false }
        if oldSize == newSize { return proof.isEmpty && oldRoot == newRoot }
        guard !proof.isEmpty else { return false }
        var path = proof[...]
        // When the old size is a power of two, its root is the proof's implied first node.
        if oldSize & (oldSize - 1) == 0 { path = [oldRoot] + proof }
        guard let first = path.first else { return false }
        var fn = oldSize - 1, sn = newSize - 1
        while fn & 1 == 1 {
            fn >>= 1
            sn >>= 1
        }
        var fr = first, sr = first
        for c in path.dropFirst() {
            guard sn != 0 else { return false }
            if fn & 1 == 1 || fn == sn {
                fr = nodeHash(c, fr)
                sr = nodeHash(c, sr)
                if fn & 1 == 0 {
                    while fn & 1 == 0 && fn != 0 {
                        fn >>= 1
                        sn >>= 1
                    }
                }
            } else {
                sr = nodeHash(sr, c)
            }
            fn >>= 1
            sn >>= 1
        }
        return sn == 0 && fr == oldRoot && sr == newRoot
    }
}
