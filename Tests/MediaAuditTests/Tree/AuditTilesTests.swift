import Foundation
import MediaAudit
import MediaCore
import MediaCrypto
import Testing

/// C2SP tlog-tiles paths, and the tiles and entry bundles made from `tree-entries`.
@Suite struct TilePathTests {
    @Test func pathsAreEncodedInThreeDigitElements() throws {
        #expect(TilePath(level: 0, index: 1_234_067).path == "0/x001/x234/067")
        #expect(TilePath(level: 3, index: 0).path == "3/000")
        #expect(TilePath(level: nil, index: 1_000, width: 5).path == "entries/x001/000.p/5")
        for path in ["0/x001/x234/067", "3/000", "entries/x001/000.p/5", "63/255.p/255", "1/999"] {
            #expect(try TilePath(path: path).path == path)
        }
        #expect(try TilePath(path: "entries/000.p/5") == TilePath(level: nil, index: 0, width: 5))
    }

    @Test func anythingButTheCanonicalEncodingIsRefusedWithItsReason() {
        let cases: [(String, String)] = [
            ("0", "a tile path is <L>/<N>[.p/<W>] or entries/<N>[.p/<W>]"),
            ("01/000", "the level is 0 to 63 in decimal without leading zeros, or entries"),
            ("64/000", "the level is 0 to 63 in decimal without leading zeros, or entries"),
            ("data/000", "the level is 0 to 63 in decimal without leading zeros, or entries"),
            ("0/1234", "the index is 3-digit path elements, all but the last starting with x"),
            ("0/001/234", "the index is 3-digit path elements, all but the last starting with x"),
            ("0/x001/x234/67", "the index is 3-digit path elements, all but the last starting with x"),
            ("0/000.p/0", "a partial tile's width is 1 to 255, in decimal without leading zeros"),
            ("0/000.p/256", "a partial tile's width is 1 to 255, in decimal without leading zeros"),
            ("0/000.p/05", "a partial tile's width is 1 to 255, in decimal without leading zeros"),
            ("0/x000/001", "not the canonical encoding (0/001)"),
        ]
        for (path, why) in cases {
            #expect(throws: AuditError(.invalidTilePath, "tile/\(path): \(why)")) { try TilePath(path: path) }
        }
    }
}

@Suite struct AuditTilesTests {
    /// A log of 300 records; its tree (entries and leaves).
    func log(_ dir: TempDirectory) throws -> AuditTree {
        try writeLog(dir, count: 300)
        return try AuditTree.read(directory: dir.audit)
    }

    @Test func tilesHoldTheLeavesAndTheRootsOfFullTilesBelow() throws {
        let dir = TempDirectory()
        defer { dir.cleanup() }
        let tree = try log(dir)
        let full = try #require(try AuditTiles.bytes(TilePath(level: 0, index: 0), directory: dir.audit))
        #expect(full == tree.leaves[0..<256].flatMap(\.bytes))
        let partial = try #require(try AuditTiles.bytes(TilePath(level: 0, index: 1, width: 44), directory: dir.audit))
        #expect(partial == tree.leaves[256..<300].flatMap(\.bytes))
        let upper = try #require(try AuditTiles.bytes(TilePath(level: 1, index: 0, width: 1), directory: dir.audit))
        #expect(upper == MerkleTree.root(tree.leaves[0..<256]).bytes)
        // A client rebuilds the root of the 300 records from the two partial tiles' hashes.
        let right = MerkleTree.root(tree.leaves[256..<300])
        #expect(MerkleTree.nodeHash(SHA256Digest(bytes: upper), right) == MerkleTree.root(tree.leaves[...]))
        // Tiles past the log are not made.
        #expect(try AuditTiles.bytes(TilePath(level: 0, index: 1), directory: dir.audit) == nil)
        #expect(try AuditTiles.bytes(TilePath(level: 0, index: 1, width: 45), directory: dir.audit) == nil)
        #expect(try AuditTiles.bytes(TilePath(level: 1, index: 0), directory: dir.audit) == nil)
        #expect(try AuditTiles.bytes(TilePath(level: 63, index: 999_999_999_999), directory: dir.audit) == nil)
    }

    /// Above level 0 a tile's hashes are the roots of the full tiles below: a level-1 tile and a level-2 hash over
    /// 65,792 entries are MTH of their runs, as RFC 9162 defines them, with or without a cache; a full tile made once is
    /// served from the cache.
    @Test func upperTilesAreTheRootsOfTheirRuns() throws {
        let dir = TempDirectory()
        defer { dir.cleanup() }
        let count = 256 * 257
        var bytes: [UInt8] = []
        bytes.reserveCapacity(count * 32)
        for index in 0..<count { bytes += SHA256.hash(Array("entry-\(index)".utf8)).bytes }
        try FileManager.default.createDirectory(atPath: dir.audit, withIntermediateDirectories: true)
        try Data(bytes).write(to: URL(fileURLWithPath: dir.audit + "/tree-entries"))
        let leaves = stride(from: 0, to: bytes.count, by: 32).map {
            MerkleTree.leafHash(digest: SHA256Digest(bytes: Array(bytes[$0..<($0 + 32)])))
        }
        let level1 = try #require(try AuditTiles.bytes(TilePath(level: 1, index: 0), directory: dir.audit))
        let runs: [UInt8] = (0..<256).flatMap { (run: Int) -> [UInt8] in
            MerkleTree.root(leaves[(run * 256)..<((run + 1) * 256)]).bytes
        }
        #expect(level1 == runs)
        let level2 = try #require(try AuditTiles.bytes(TilePath(level: 2, index: 0, width: 1), directory: dir.audit))
        #expect(level2 == MerkleTree.root(leaves[0..<65_536]).bytes)
        #expect(try AuditTiles.bytes(TilePath(level: 2, index: 0, width: 2), directory: dir.audit) == nil)
        let cache = AuditTileCache()
        #expect(try AuditTiles.bytes(TilePath(level: 2, index: 0, width: 1), directory: dir.audit, cache: cache) == level2)
        #expect(cache.count == 256 + 1)   // the 256 level-0 tiles and the level-1 tile below the level-2 hash
        #expect(try AuditTiles.bytes(TilePath(level: 1, index: 0), directory: dir.audit, cache: cache) == level1)
        // Full tiles never change: made once, they are not made again from the entries.
        try Data(repeating: 0, count: count * 32).write(to: URL(fileURLWithPath: dir.audit + "/tree-entries"))
        #expect(try AuditTiles.bytes(TilePath(level: 2, index: 0, width: 1), directory: dir.audit, cache: cache) == level2)
        #expect(try AuditTiles.bytes(TilePath(level: 1, index: 0), directory: dir.audit) != level1)
    }

    @Test func entryBundlesHoldTheRecordsHashesLengthPrefixed() throws {
        let dir = TempDirectory()
        defer { dir.cleanup() }
        let tree = try log(dir)
        let records = try AuditReader.records(directory: dir.audit)
        let bundle = try #require(try AuditTiles.bytes(TilePath(level: nil, index: 1, width: 44), directory: dir.audit))
        #expect(bundle.count == 44 * 34)
        #expect(Array(bundle[0..<34]) == [0, 32] + Hex.decode(records[256].hash.hex)!)
        // Each entry hashes to its leaf in the level-0 tile.
        let entries = stride(from: 0, to: bundle.count, by: 34).map { SHA256Digest(bytes: Array(bundle[($0 + 2)..<($0 + 34)])) }
        #expect(entries.map { MerkleTree.leafHash(digest: $0) } == Array(tree.leaves[256..<300]))
        #expect(try AuditTiles.bytes(TilePath(level: nil, index: 0), directory: dir.audit)?.count == 256 * 34)
        #expect(try AuditTiles.bytes(TilePath(level: nil, index: 1), directory: dir.audit) == nil)
    }
}
