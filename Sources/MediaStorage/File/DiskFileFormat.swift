import MediaCrypto

/// The plain `disk` file format, version 2: keyed with the install's ``IntegrityKey``. All integers big-endian.
///
/// ```
/// offset      size  field
/// 0           4     magic "MCSD"
/// 4           2     format version = 2
/// 6           2     reserved = 0
/// 8           4     M: metadata length
/// 12          8     B: body length
/// 20          32    header tag: HMAC-SHA256(header key, bytes [0, 20) ‖ metadata)     (checked at scan and read)
/// 52          M     metadata (see MetadataCoding)
/// 52+M        B     body
/// 52+M+B      32    file tag: HMAC-SHA256(file key, bytes [0, 52+M) ‖ D)               (checked on every read)
///                   where D = HMAC-SHA256(body key, body), the body digest (IntegrityKey.bodyDigest(of:))
/// ```
/// File size = 84 + M + B. The metadata's key must hash to the file name. Version 1 had the same layout with
/// unkeyed SHA-256 checksums (over bytes [0, 20) ‖ metadata, and over bytes [0, 52+M+B)): anyone who could write
/// the file could recompute them, so version 1 files are refused (`foreign-version`) and dropped at the first
/// start of version 2 (docs/storage.md, "Integrity").
///
/// A file whose tags were made under another key (another install, or forged without the key) fails with
/// `bad-checksum`, like a flipped byte.
struct DiskFileFormat: EntryFileFormat {
    static let magic: [UInt8] = Array("MCSD".utf8)
    static let version: UInt16 = 2
    /// Versions whose layout is this one's (body at 52+M, B bytes): 1 (unkeyed, refused) and 2.
    static let sameLayoutVersions: ClosedRange<UInt16> = 1...2
    static let fixedHeaderCount = 20
    static let prefixCount = 52
    static let tagCount = 32
    /// Bytes read at once at scan: header and most metadata in one `pread`.
    static let scanReadCount = 1024

    /// The install's key: every tag is made and checked under it.
    let key: IntegrityKey

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

    /// Writes the file; the file tag covers the body through `entry`'s body digest (computed once: the
    /// service's `store` record named the same value).
    func write(metadata: [UInt8], entry: StoredEntry, name: String, to fd: Int32, path: String) throws {
        let body = entry.body
        var prefix = Self.header(metadataCount: metadata.count, bodyCount: body.count)
        var headerTag = key.headerKey.makeHasher()
        headerTag.update(prefix)
        headerTag.update(metadata)
        prefix.append(contentsOf: headerTag.finalize())
        prefix.append(contentsOf: metadata)
        try POSIX.writeAll(fd, prefix, path: path)
        try POSIX.writeAll(fd, body, path: path)
        try POSIX.writeAll(fd, fileTag(prefix: prefix, bodyDigest: entry.bodyDigest(under: key)), path: path)
    }

    /// HMAC-SHA256(file key, `prefix` ‖ `bodyDigest`).
    func fileTag(prefix: some Sequence<UInt8>, bodyDigest: [UInt8]) -> [UInt8] {
        var tag = key.fileKey.makeHasher()
        tag.update(prefix)
        tag.update(bodyDigest)
        return tag.finalize()
    }

    /// The fixed header's fields.
    struct Layout {
        let version: UInt16
        let metadataCount: Int
        let bodyCount: Int
        /// 52 + M: where the body starts.
        var prefixCount: Int { DiskFileFormat.prefixCount + metadataCount }
    }

    /// Reads the first bytes of the file and checks magic, the version against `versions` and the lengths
    /// against `size`. Returns the layout and the bytes read (up to ``scanReadCount``).
    static func readLayout(_ fd: Int32, size: Int, versions: ClosedRange<UInt16>) -> Result<(Layout, [UInt8]), FileDefect> {
        guard size >= prefixCount + tagCount, let start = POSIX.read(fd, count: min(size, scanReadCount), at: 0) else {
            return .failure(FileDefect(.truncated))
        }
        guard start.starts(with: magic) else { return .failure(FileDefect(.badMagic)) }
        let (version, metadataCount, bodyCount): (UInt16, Int, UInt64) = start.withUnsafeBytes { raw in
            var reader = ByteCursor(raw, offset: 4)
            let version = reader.readUInt16()!
            _ = reader.readUInt16()
            return (version, Int(reader.readUInt32()!), reader.readUInt64()!)
        }
        guard versions.contains(version) else { return .failure(FileDefect(.foreignVersion)) }
        guard bodyCount <= UInt64(Int.max / 2), 84 + metadataCount + Int(bodyCount) == size else {
            return .failure(FileDefect(.truncated))
        }
        return .success((Layout(version: version, metadataCount: metadataCount, bodyCount: Int(bodyCount)), start))
    }

    /// Reads header + metadata, checks magic, version, lengths against `size`, the header tag and the key
    /// against `name`. Returns the prefix bytes (`52 + M`) and the metadata.
    private func readPrefix(_ fd: Int32, size: Int, name: String) -> Result<(prefix: [UInt8], metadata: EntryMetadata), FileDefect> {
        let layoutResult = Self.readLayout(fd, size: size, versions: Self.version...Self.version)
        guard case .success(let (layout, start)) = layoutResult else {
            if case .failure(let defect) = layoutResult { return .failure(defect) }
            return .failure(FileDefect(.malformed))
        }
        var prefix = start
        if prefix.count < layout.prefixCount {
            guard let rest = POSIX.read(fd, count: layout.prefixCount - prefix.count, at: prefix.count) else {
                return .failure(FileDefect(.truncated))
            }
            prefix.append(contentsOf: rest)
        } else {
            prefix.removeLast(prefix.count - layout.prefixCount)
        }
        return verifyPrefix(prefix, bodyCount: layout.bodyCount, name: name).map { (prefix, $0) }
    }

    /// Checks the header tag of `prefix` (bytes [0, 52+M)), decodes the metadata and checks its key against `name`.
    func verifyPrefix(_ prefix: [UInt8], bodyCount: Int, name: String) -> Result<EntryMetadata, FileDefect> {
        let metadata: EntryMetadata?? = prefix.withUnsafeBytes { raw in
            var hasher = key.headerKey.makeHasher()
            hasher.update(UnsafeRawBufferPointer(rebasing: raw[0..<Self.fixedHeaderCount]))
            hasher.update(UnsafeRawBufferPointer(rebasing: raw[Self.prefixCount...]))
            let expected = hasher.finalize()
            guard ConstantTime.equals(expected, Array(raw[Self.fixedHeaderCount..<Self.prefixCount])) else { return nil }
            return .some(MetadataCoding.decode(UnsafeRawBufferPointer(rebasing: raw[Self.prefixCount...]),
                                               bodyByteCount: bodyCount))
        }
        guard let checked = metadata else { return .failure(FileDefect(.badChecksum)) }
        guard let decoded = checked, KeyDigest.hex(of: decoded.key) == name else { return .failure(FileDefect(.malformed)) }
        return .success(decoded)
    }

    func readMetadata(from fd: Int32, size: Int, name: String) -> Result<EntryMetadata, FileDefect>? {
        readPrefix(fd, size: size, name: name).map(\.metadata)
    }

    /// Reads and verifies the whole file: header tag, then one HMAC pass over the body (its digest) and the
    /// file tag over the prefix and that digest. The entry returned keeps the digest (``StoredEntry/bodyDigest(under:)``).
    func read(from fd: Int32, size: Int, name: String) -> Result<StoredEntry, FileDefect> {
        let prefixResult = readPrefix(fd, size: size, name: name)
        guard case .success(let (prefix, metadata)) = prefixResult else {
            if case .failure(let defect) = prefixResult { return .failure(defect) }
            return .failure(FileDefect(.malformed))
        }
        let bodyCount = metadata.bodyByteCount
        guard let body = POSIX.read(fd, count: bodyCount, at: prefix.count),
              let tag = POSIX.read(fd, count: Self.tagCount, at: prefix.count + bodyCount) else {
            return .failure(FileDefect(.truncated))
        }
        // The one pass over the body: its digest, which the file tag covers.
        let digest = key.bodyDigest(of: body)
        guard ConstantTime.equals(fileTag(prefix: prefix, bodyDigest: digest), tag) else {
            return .failure(FileDefect(.badChecksum))
        }
        return .success(StoredEntry(metadata: metadata, body: body, bodyDigest: digest, key: key))
    }
}
