import MediaCrypto

/// The Merkle tree of RFC 9162 §2.1 (Certificate Transparency 2.0) over a log's entries, as SHA-256 hashes: a leaf is
/// `SHA-256(0x00 || entry)`, an inner node `SHA-256(0x01 || left || right)`, and a tree of `n` entries splits at
/// the largest power of two below `n`. The audit log's records are its entries (their canonical bytes), so a
/// checkpoint's root commits to every record up to its size, and the proofs below show a third party, with nothing
/// but SHA-256, that a record is in the log (inclusion) and that a later checkpoint extends an earlier one
/// (consistency).
///
/// The functions take the leaves' hashes (``leafHash(_:)``), in log order.
public enum MerkleTree {
    /// `SHA-256(0x00 || entry)` (RFC 9162 §2.1.1).
    public static func leafHash(_ entry: some Sequence<UInt8>) -> SHA256Digest {
        var hash = SHA256()
        hash.update([0x00])
        hash.update(entry)
        return hash.finalize()
    }

    /// `SHA-256(0x01 || left || right)` (RFC 9162 §2.1.1): one call over a 65-byte buffer on the stack when both are
    /// 32 bytes (every hash a tree makes; a proof's hashes are checked to be).
    public static func nodeHash(_ left: SHA256Digest, _ right: SHA256Digest) -> SHA256Digest {
        guard left.bytes.count == 32, right.bytes.count == 32 else {
            var hash = SHA256()
            hash.update([0x01])
            hash.update(left.bytes)
            hash.update(right.bytes)
            return hash.finalize()
        }
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 65) { buffer in
            buffer[0] = 0x01
            for index in 0..<32 {
                buffer[1 &+ index] = left.bytes[index]
                buffer[33 &+ index] = right.bytes[index]
            }
            return SHA256.hash(UnsafeRawBufferPointer(buffer))
        }
    }

    /// ``leafHash(_:)`` of a 32-byte entry (an audit record's `hash`), over a 33-byte buffer on the stack.
    public static func leafHash(digest: SHA256Digest) -> SHA256Digest {
        guard digest.bytes.count == 32 else { return leafHash(digest.bytes) }
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 33) { buffer in
            buffer[0] = 0x00
            for index in 0..<32 { buffer[1 &+ index] = digest.bytes[index] }
            return SHA256.hash(UnsafeRawBufferPointer(buffer))
        }
    }

    /// ``nodeHash(_:_:)`` of inline digests, over a 65-byte buffer on the stack: what a growing tree makes per node.
    public static func nodeHash(_ left: InlineSHA256Digest, _ right: InlineSHA256Digest) -> InlineSHA256Digest {
        withUnsafeTemporaryAllocation(byteCount: 65, alignment: 8) { buffer in
            buffer[0] = 0x01
            left.withBytes { UnsafeMutableRawBufferPointer(rebasing: buffer[1..<33]).copyMemory(from: $0) }
            right.withBytes { UnsafeMutableRawBufferPointer(rebasing: buffer[33..<65]).copyMemory(from: $0) }
            return SHA256.inlineHash(UnsafeRawBufferPointer(buffer))
        }
    }

    /// ``leafHash(_:)`` of a 32-byte entry held inline (an audit record's `hash`), over a 33-byte buffer on the stack.
    public static func leafHash(inline entry: InlineSHA256Digest) -> InlineSHA256Digest {
        withUnsafeTemporaryAllocation(byteCount: 33, alignment: 8) { buffer in
            buffer[0] = 0x00
            entry.withBytes { UnsafeMutableRawBufferPointer(rebasing: buffer[1..<33]).copyMemory(from: $0) }
            return SHA256.inlineHash(UnsafeRawBufferPointer(buffer))
        }
    }

    /// The hash of the empty tree: `SHA-256("")`.
    public static var emptyRoot: SHA256Digest { SHA256().finalize() }

    /// The largest power of two smaller than `count` (`count` > 1): where a tree of `count` leaves splits.
    static func split(_ count: Int) -> Int {
        var k = 1
        while k << 1 < count { k <<= 1 }
        return k
    }

    /// MTH (RFC 9162 §2.1.1): the root of the tree over `leaves`.
    public static func root(_ leaves: ArraySlice<SHA256Digest>) -> SHA256Digest {
        switch leaves.count {
        case 0: return emptyRoot
        case 1: return leaves[leaves.startIndex]
        default:
            let k = split(leaves.count)
            let middle = leaves.startIndex + k
            return nodeHash(root(leaves[..<middle]), root(leaves[middle...]))
        }
    }

    /// PATH (RFC 9162 §2.1.3.1): the inclusion proof of the leaf at `index` in the tree over `leaves`, from the leaf's
    /// sibling up.
    /// - Precondition: `0 <= index < leaves.count`.
    public static func inclusionProof(index: Int, _ leaves: ArraySlice<SHA256Digest>) -> [SHA256Digest] {
        precondition(index >= 0 && index < leaves.count, "leaf index \(index) outside a tree of \(leaves.count)")
        guard leaves.count > 1 else { return [] }
        let k = split(leaves.count)
        let middle = leaves.startIndex + k
        if index < k { return inclusionProof(index: index, leaves[..<middle]) + [root(leaves[middle...])] }
        return inclusionProof(index: index - k, leaves[middle...]) + [root(leaves[..<middle])]
    }

    /// PROOF (RFC 9162 §2.1.4.1): the consistency proof between the tree of the first `oldSize` leaves and the tree
    /// over all `leaves`.
    /// - Precondition: `0 < oldSize <= leaves.count`.
    public static func consistencyProof(oldSize: Int, _ leaves: ArraySlice<SHA256Digest>) -> [SHA256Digest] {
        precondition(oldSize > 0 && oldSize <= leaves.count, "old size \(oldSize) outside 1…\(leaves.count)")
        return subproof(oldSize, leaves, complete: true)
    }

    /// SUBPROOF (RFC 9162 §2.1.4.1).
    private static func subproof(_ m: Int, _ leaves: ArraySlice<SHA256Digest>, complete: Bool) -> [SHA256Digest] {
        if m == leaves.count { return complete ? [] : [root(leaves)] }
        let k = split(leaves.count)
        let middle = leaves.startIndex + k
        if m <= k { return subproof(m, leaves[..<middle], complete: complete) + [root(leaves[middle...])] }
        return subproof(m - k, leaves[middle...], complete: false) + [root(leaves[..<middle])]
    }
}
