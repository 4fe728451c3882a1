import MediaCrypto

/// Disk files rewritten the way someone who can write `disk/` but cannot read the integrity key would: with the
/// unkeyed SHA-256 checksums of format version 1 (docs/storage.md, "Integrity").
enum DiskForgery {
    /// The parts of a disk file: the 20-byte fixed header, the metadata and the body.
    static func parts(_ file: [UInt8]) -> (header: [UInt8], metadata: [UInt8], body: [UInt8]) {
        let metadataCount = file[8..<12].reduce(0) { $0 << 8 | Int($1) }
        let bodyCount = file[12..<20].reduce(0) { $0 << 8 | Int($1) }
        return (Array(file[0..<20]), Array(file[52..<(52 + metadataCount)]),
                Array(file[(52 + metadataCount)..<(52 + metadataCount + bodyCount)]))
    }

    /// `file` with its body replaced by `body` (B updated) and both checksums recomputed unkeyed: SHA-256 of
    /// bytes [0, 20) ‖ metadata, and SHA-256 of bytes [0, 52+M+B). The version field is `version`, or kept.
    static func unkeyed(_ file: [UInt8], body: [UInt8], version: UInt16? = nil) -> [UInt8] {
        let (original, metadata, _) = parts(file)
        var header = Array(original[0..<12])
        if let version { header[4] = UInt8(version >> 8); header[5] = UInt8(version & 0xff) }
        header += (0..<8).reversed().map { UInt8(truncatingIfNeeded: body.count >> ($0 * 8)) }
        var prefix = header + SHA256.hash(header + metadata).bytes + metadata
        prefix += body
        return prefix + SHA256.hash(prefix).bytes
    }

    /// `file` with its body replaced by `body` of the same length, bytes [0, 52+M) kept (so its header tag still
    /// verifies), and the last 32 bytes recomputed unkeyed: SHA-256 of bytes [0, 52+M+B).
    static func unkeyedFileTagOnly(_ file: [UInt8], body: [UInt8]) -> [UInt8] {
        let (_, metadata, original) = parts(file)
        precondition(original.count == body.count, "same length only")
        let content = Array(file[0..<(52 + metadata.count)]) + body
        return content + SHA256.hash(content).bytes
    }

    /// `file` (same body) as format version 1 wrote it: version 1, unkeyed checksums.
    static func versionOne(_ file: [UInt8]) -> [UInt8] { unkeyed(file, body: parts(file).body, version: 1) }
}
