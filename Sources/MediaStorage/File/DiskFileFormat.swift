import MediaCrypto

/// The plain `disk` file format, version 1. All integers big-endian.
///
/// ```
/// offset      size  field
/// 0           4     magic "MCSD"
/// 4           2     format version = 1
/// 6           2     reserved = 0
/// 8           4     M: metadata length
/// 12          8     B: body length
/// 20          32    SHA-256 of bytes [0, 20) ‖ metadata   (header checksum, checked at scan)
/// 52          M     metadata (see MetadataCoding)
/// 52+M        B     body
/// 52+M+B      32    SHA-256 of bytes [0, 52+M+B)          (file checksum, checked on read)
/// ```
/// File size = 84 + M + B. The metadata's key must hash to the file name.
struct DiskFileFormat: EntryFileFormat {
    static let magic: [UInt8] = Array("MCSD".utf8)
    static let version: UInt16 = 1
    static let fixedHeaderCount = 20
    static let prefixCount = 52
    /// Bytes read at once at scan: header and most metadata in one `pread`.
    static let scanReadCount = 1024

    func fileSize(metadataCount: Int, bodyCount: Int) -> Int { 84 + metadataCount + bodyCount }

    static func header(metadataCount: Int, bodyCount: Int, version: UInt16 = version) -> [UInt8] {
        var writer = ByteWriter(capacity: fixedHeaderCount)
        writer.bytes.append(contentsOf: magic)
        writer.append(version)
        writer.append(UInt16(0))
        writer.append(UInt32(metadataCount))
        writer.append(UInt64(bodyCount))
        return writer.bytes
    }

    func write(metadata: [UInt8], body: [UInt8], name: String, to fd: Int32, path: String) throws {
        var prefix = Self.header(metadataCount: metadata.count, bodyCount: body.count)
        var headerHash = SHA256()
        headerHash.update(prefix)
        headerHash.update(metadata)
        prefix.append(contentsOf: headerHash.finalize().bytes)
        prefix.append(contentsOf: metadata)
        var fileHash = SHA256()
        fileHash.update(prefix)
        fileHash.update(body)
        try POSIX.writeAll(fd, prefix, path: path)
        try POSIX.writeAll(fd, body, path: path)
        try POSIX.writeAll(fd, fileHash.finalize().bytes, path: path)
    }

    /// Reads header + metadata, checks magic, version, lengths against `size`, the header checksum
    /// and the key against `name`. Returns the prefix bytes (`52 + M`), the metadata and B.
    private func readPrefix(_ fd: Int32, size: Int, name: String) -> Result<(prefix: [UInt8], metadata: EntryMetadata), FileDefect> {
        guard size >= Self.prefixCount + 32,
              var prefix = POSIX.read(fd, count: min(size, Self.scanReadCount), at: 0) else { return .failure(FileDefect(.truncated)) }
        guard prefix.starts(with: Self.magic) else { return .failure(FileDefect(.badMagic)) }
        let (version, metadataCount, bodyCount): (UInt16, Int, UInt64) = prefix.withUnsafeBytes { raw in
            var reader = ByteReader(raw, offset: 4)
            let version = reader.readUInt16()!
            _ = reader.readUInt16()
            return (version, Int(reader.readUInt32()!), reader.readUInt64()!)
        }
        guard version == Self.version else { return .failure(FileDefect(.foreignVersion)) }
        guard bodyCount <= UInt64(Int.max / 2), fileSize(metadataCount: metadataCount, bodyCount: Int(bodyCount)) == size else {
            return .failure(FileDefect(.truncated))
        }
        let prefixCount = Self.prefixCount + metadataCount
        if prefix.count < prefixCount {
            guard let rest = POSIX.read(fd, count: prefixCount - prefix.count, at: prefix.count) else {
                return .failure(FileDefect(.truncated))
            }
            prefix.append(contentsOf: rest)
        } else {
            prefix.removeLast(prefix.count - prefixCount)
        }
        let metadata: EntryMetadata?? = prefix.withUnsafeBytes { raw in
            var hasher = SHA256()
            hasher.update(UnsafeRawBufferPointer(rebasing: raw[0..<Self.fixedHeaderCount]))
            hasher.update(UnsafeRawBufferPointer(rebasing: raw[Self.prefixCount...]))
            let expected = hasher.finalize().bytes
            guard expected.elementsEqual(raw[Self.fixedHeaderCount..<Self.prefixCount]) else { return nil }
            return .some(MetadataCoding.decode(UnsafeRawBufferPointer(rebasing: raw[Self.prefixCount...]),
                                               bodyByteCount: Int(bodyCount)))
        }
        guard let checked = metadata else { return .failure(FileDefect(.badChecksum)) }
        guard let decoded = checked, KeyDigest.hex(of: decoded.key) == name else { return .failure(FileDefect(.malformed)) }
        return .success((prefix, decoded))
    }

    func readMetadata(from fd: Int32, size: Int, name: String) -> Result<EntryMetadata, FileDefect>? {
        readPrefix(fd, size: size, name: name).map(\.metadata)
    }

    func read(from fd: Int32, size: Int, name: String) -> Result<StoredEntry, FileDefect> {
        let prefixResult = readPrefix(fd, size: size, name: name)
        guard case .success(let (prefix, metadata)) = prefixResult else {
            if case .failure(let defect) = prefixResult { return .failure(defect) }
            return .failure(FileDefect(.malformed))
        }
        let bodyCount = metadata.bodyByteCount
        guard let body = POSIX.read(fd, count: bodyCount, at: prefix.count),
              let checksum = POSIX.read(fd, count: 32, at: prefix.count + bodyCount) else { return .failure(FileDefect(.truncated)) }
        var hasher = SHA256()
        hasher.update(prefix)
        hasher.update(body)
        guard ConstantTime.equals(hasher.finalize().bytes, checksum) else { return .failure(FileDefect(.badChecksum)) }
        return .success(StoredEntry(metadata: metadata, body: body))
    }
}
