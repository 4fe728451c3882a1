import MediaAudit
import MediaCore
import MediaCrypto
import Testing

/// RFC 9162 §2.1 over the eight entries of the RFC 6962 test data (the roots and proofs Certificate Transparency's
/// implementations test against; recomputed with Python's hashlib from the RFC's definitions).
@Suite struct MerkleTreeTests {
    static let entries: [[UInt8]] = [[], [0x00], [0x10], [0x20, 0x21], [0x30, 0x31], [0x40, 0x41, 0x42, 0x43],
                                     Array(0x50...0x57), Array(0x60...0x6F)]
    static let leaves = entries.map { MerkleTree.leafHash($0) }
    static let roots = [
        "6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d",
        "fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125",
        "aeb6bcfe274b70a14fb067a5e5578264db0fa9b51af5e0ba159158f329e06e77",
        "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7",
        "4e3bbb1f7b478dcfe71fb631631519a3bca12c9aefca1612bfce4c13a86264d4",
        "76e67dadbcdf1e10e1b74ddc608abd2f98dfb16fbce75277b5232a127f2087ef",
        "ddb89be403809e325750d3d263cd78929c2942b7942a34b77e122c9594a74c8c",
        "5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328",
    ]
    static let inclusion: [(index: Int, size: Int, proof: [String])] = [
        (0, 8, ["96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7", "5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e", "6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4"]),
        (5, 8, ["bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b", "ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0", "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7"]),
        (2, 3, ["fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125"]),
        (6, 7, ["0ebc5d3437fbe2db158b9f126a1d118e308181031d0a949f8dededebc558ef6a", "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7"]),
    ]
    static let consistency: [(old: Int, new: Int, proof: [String])] = [
        (1, 8, ["96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7", "5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e", "6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4"]),
        (6, 8, ["0ebc5d3437fbe2db158b9f126a1d118e308181031d0a949f8dededebc558ef6a", "ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0", "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7"]),
        (2, 5, ["5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e", "bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b"]),
        (3, 7, ["0298d122906dcfc10892cb53a73992fc5b9f493ea4c9badb27b791b4127a7fe7", "07506a85fd9dd2f120eb694f86011e5bb4662e5c415a62917033d4a9624487e7", "fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125", "837dbb152e9b079010717e84e865da4ebc0fa198a806d59d31bf15accef22d0e"]),
        (4, 8, ["6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4"]),
    ]

    static func hexes(_ digests: [SHA256Digest]) -> [String] { digests.map(\.hex) }

    static func digests(_ hexes: [String]) -> [SHA256Digest] {
        hexes.map { SHA256Digest(bytes: Hex.decode($0)!) }
    }

    @Test func roots() {
        #expect(MerkleTree.emptyRoot.hex == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        for size in 1...8 {
            #expect(MerkleTree.root(Self.leaves[..<size]).hex == Self.roots[size - 1], "size \(size)")
        }
    }

    @Test func theFrontierHasTheRootAtEverySize() {
        var frontier = MerkleFrontier()
        #expect(frontier.root == MerkleTree.emptyRoot)
        for (index, leaf) in Self.leaves.enumerated() {
            frontier.append(leaf)
            #expect(frontier.size == index + 1)
            #expect(frontier.root.hex == Self.roots[index], "size \(index + 1)")
        }
        #expect(frontier.subtrees.count == 1)  // 8 leaves: one perfect subtree
    }

    @Test func inclusionProofs() {
        for vector in Self.inclusion {
            let proof = MerkleTree.inclusionProof(index: vector.index, Self.leaves[..<vector.size])
            #expect(Self.hexes(proof) == vector.proof, "\(vector.index) in \(vector.size)")
            let root = Self.digests([Self.roots[vector.size - 1]])[0]
            #expect(MerkleTree.verifyInclusion(leaf: Self.leaves[vector.index], index: vector.index, size: vector.size,
                                               proof: proof, root: root))
            // The wrong leaf, index, size or root, or a changed proof, does not verify.
            #expect(!MerkleTree.verifyInclusion(leaf: Self.leaves[(vector.index + 1) % vector.size], index: vector.index,
                                                size: vector.size, proof: proof, root: root))
            #expect(!MerkleTree.verifyInclusion(leaf: Self.leaves[vector.index], index: vector.index, size: vector.size + 1,
                                                proof: proof, root: root))
            #expect(!MerkleTree.verifyInclusion(leaf: Self.leaves[vector.index], index: vector.index, size: vector.size,
                                                proof: proof.dropLast(), root: root))
            #expect(!MerkleTree.verifyInclusion(leaf: Self.leaves[vector.index], index: vector.size, size: vector.size,
                                                proof: proof, root: root))
        }
        // Every leaf of every size up to 8 proves its inclusion.
        for size in 1...8 {
            let root = MerkleTree.root(Self.leaves[..<size])
            for index in 0..<size {
                let proof = MerkleTree.inclusionProof(index: index, Self.leaves[..<size])
                #expect(MerkleTree.verifyInclusion(leaf: Self.leaves[index], index: index, size: size, proof: proof, root: root))
            }
        }
    }

    @Test func consistencyProofs() {
        for vector in Self.consistency {
            let proof = MerkleTree.consistencyProof(oldSize: vector.old, Self.leaves[..<vector.new])
            #expect(Self.hexes(proof) == vector.proof, "\(vector.old) → \(vector.new)")
        }
        for new in 1...8 {
            let newRoot = MerkleTree.root(Self.leaves[..<new])
            for old in 1...new {
                let oldRoot = MerkleTree.root(Self.leaves[..<old])
                let proof = MerkleTree.consistencyProof(oldSize: old, Self.leaves[..<new])
                #expect(MerkleTree.verifyConsistency(oldSize: old, oldRoot: oldRoot, newSize: new, newRoot: newRoot,
                                                     proof: proof), "\(old) → \(new)")
                guard old < new else { continue }
                // A log whose earlier entry was altered (and its tree rebuilt) does not extend the old checkpoint.
                var altered = Array(Self.leaves[..<new])
                altered[old - 1] = MerkleTree.leafHash([0xEE])
                let alteredRoot = MerkleTree.root(altered[...])
                let alteredProof = MerkleTree.consistencyProof(oldSize: old, altered[...])
                #expect(!MerkleTree.verifyConsistency(oldSize: old, oldRoot: oldRoot, newSize: new, newRoot: alteredRoot,
                                                      proof: alteredProof), "\(old) → \(new), altered")
            }
        }
        #expect(!MerkleTree.verifyConsistency(oldSize: 3, oldRoot: Self.leaves[0], newSize: 2, newRoot: Self.leaves[0],
                                              proof: []))
    }
}
