import MediaCrypto

/// `audit/tree-leaves`: the leaf hashes of the audit log's Merkle tree (``AuditTree``), 32 bytes each, in `seq` order,
/// appended by the log as it writes (``AuditTreeWriter``). They let the tree, and every proof, outlive `audit prune`:
/// the records of removed segments are gone, their leaves stay. A torn last leaf (fewer than 32 bytes) is not one.
enum AuditLeafFile {
    /// The file's name in the audit folder.
    static let name = "tree-leaves"

    /// The leaves in the audit folder `directory` (`[]` when the file is missing).
    /// - Throws: ``AuditError`` `io`.
    static func read(directory: String) throws -> [SHA256Digest] {
        leaves(in: try AuditFiles.read(directory + "/" + name) ?? [])
    }

    /// The whole leaves in `bytes`.
    static func leaves(in bytes: [UInt8]) -> [SHA256Digest] {
        stride(from: 0, to: bytes.count - bytes.count % 32, by: 32).map { SHA256Digest(bytes: Array(bytes[$0..<($0 + 32)])) }
    }
}
