import MediaCrypto

/// Disk files rewritten the way someone who can write `disk/` but cannot read `keys/integrity.key` would: with the
/// unkeyed SHA-256 checksums of format version 1 (docs/storage.md, "File formats" and "Integrity").
enum DiskFileForgery {
    /// A disk file's metadata length M and body length B (bytes [8, 12) and [12, 20), big-endian).
    static func lengths(_ file: [UInt8]) -> (metadata: Int, body: Int) {
        (file[8..<12].reduce(0) { $0 << 8 | Int($1) }, file[12..<20].reduce(0) { $0 << 8 | Int($1) })
    }

    /// `file` with another body (B updated) and both checksums recomputed unkeyed: SHA-256 of bytes [0, 20) ‖
    /// metadata and SHA-256 of bytes [0, 52+M+B). The version field is kept.
    static func forged(_ file: [UInt8], body: [UInt8]) -> [UInt8] {
        let (metadataCount, _) = lengths(file)
        let metadata = Array(file[52..<(52 + metadataCount)])
        let header = Array(file[0..<12]) + (0..<8).reversed().map { UInt8(truncatingIfNeeded: body.count >> ($0 * 8)) }
        let content = header + SHA256.hash(header + metadata).bytes + metadata + body
        return content + SHA256.hash(content).bytes
    }

    /// `file` with a body of the same length and only its last 32 bytes recomputed unkeyed (SHA-256 of bytes
    /// [0, 52+M+B)): its header tag still verifies, so the service indexes it at start and only a read refuses it.
    static func forgedBehindTheHeader(_ file: [UInt8], body: [UInt8]) -> [UInt8] {
        let (metadataCount, bodyCount) = lengths(file)
        precondition(body.count == bodyCount, "a body of the same length")
        let content = Array(file[0..<(52 + metadataCount)]) + body
        return content + SHA256.hash(content).bytes
    }
}
