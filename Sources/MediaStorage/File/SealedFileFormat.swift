import MediaCrypto

/// The `encrypted-disk` file format, version 2.
///
/// ```
/// offset  size        field
/// 0       4           magic "MCSE"
/// 4       2           format version = 2 (big-endian)
/// 6       2           reserved = 0
/// 8       8           data key id (``DataKeyring``: the partition's key, random)
/// 16      12          AES-GCM nonce: 4 random bytes fixed per key ‖ u64 counter (SP 800-38D §8.2.1)
/// 28      B + M + 4   AES-256-GCM ciphertext of: body ‖ metadata ‖ u32 M
/// 32+B+M  16          GCM tag
/// ```
/// Associated data: the file name (64 hex, UTF-8) ‖ bytes [0, 16). So a file moved to another
/// name, relabelled as another version or given another key id fails authentication. Nothing but the 16-byte header,
/// the nonce and the length is in plaintext: no body byte, no key, no URL, no partition. The key id says which data
/// key opens the file, and lets `mediactl audit` tell a file whose key was destroyed (a remnant nobody can read). The
/// body comes first in the plaintext so a read returns the decrypted buffer itself, trimmed (no copy).
struct SealedFileFormat: EntryFileFormat {
    static let magic: [UInt8] = Array("MCSE".utf8)
    static let version: UInt16 = 2
    static let headerCount = 16

    let keys: DataKeyring
    /// Plaintext (write) and ciphertext (read) buffers, reused; plaintext is zeroed after use.
    let buffers = BufferPool()

    func fileSize(metadataCount: Int, bodyCount: Int) -> Int {
        Self.headerCount + AESGCM.overhead + bodyCount + metadataCount + 4
    }

    static func header(version: UInt16 = version, keyID: [UInt8]) -> [UInt8] {
        var writer = ByteWriter(capacity: headerCount)
        writer.bytes.append(contentsOf: magic)
        writer.append(version)
        writer.append(UInt16(0))
        writer.bytes.append(contentsOf: keyID)
        return writer.bytes
    }

    static func associatedData(name: String, header: [UInt8]) -> [UInt8] { Array(name.utf8) + header }

    func write(metadata: [UInt8], entry: StoredEntry, name: String, to fd: Int32, path: String) throws {
        let current: DataKeyring.DataKey?
        do {
            current = try keys.current(partition: entry.metadata.partition, counting: true)
        } catch {
            throw StorageError(.crypto, "no data key: \(error)")
        }
        guard let dataKey = current else { throw StorageError(.stopped, "the encrypted-disk keys were destroyed") }
        let body = entry.body
        let header = Self.header(keyID: dataKey.id)
        let aad = Self.associatedData(name: name, header: header)
        let count = body.count + metadata.count + 4
        let sealed: [UInt8]
        do {
            sealed = try buffers.withBuffer(count: count) { plaintext in
                defer { plaintext.initializeMemory(as: UInt8.self, repeating: 0) }
                plaintext.copyBytes(from: body)
                UnsafeMutableRawBufferPointer(rebasing: plaintext[body.count...]).copyBytes(from: metadata)
                var trailer = ByteWriter(capacity: 4)
                trailer.append(UInt32(metadata.count))
                UnsafeMutableRawBufferPointer(rebasing: plaintext[(count - 4)...]).copyBytes(from: trailer.bytes)
                return try aad.withUnsafeBytes { aadBytes in
                    try AESGCM.seal(UnsafeRawBufferPointer(plaintext), key: dataKey.key, authenticating: aadBytes,
                                    nonce: dataKey.nonces.next())
                }
            }
        } catch let error as CryptoError where error.code == .keyDestroyed {
            throw StorageError(.stopped, "the encrypted-disk key was destroyed")
        } catch {
            throw StorageError(.crypto, "sealing failed: \(error)")
        }
        try POSIX.writeAll(fd, header, path: path)
        try POSIX.writeAll(fd, sealed, path: path)
    }

    func read(from fd: Int32, size: Int, name: String) -> Result<StoredEntry, FileDefect> {
        guard size >= fileSize(metadataCount: 0, bodyCount: 0) else { return .failure(FileDefect(.truncated)) }
        let opened: Result<[UInt8], FileDefect> = buffers.withBuffer(count: size) { file in
            guard POSIX.readExactly(fd, into: file, at: 0) else { return .failure(FileDefect(.truncated)) }
            guard file.starts(with: Self.magic) else { return .failure(FileDefect(.badMagic)) }
            let header = Array(file[0..<Self.headerCount])
            guard header[4] == UInt8(Self.version >> 8), header[5] == UInt8(Self.version & 0xff) else {
                return .failure(FileDefect(.foreignVersion))
            }
            // A key this process never had, or destroyed (its partition purged): nobody can open the file.
            guard let dataKey = keys.key(id: Array(header[8..<16])) else { return .failure(FileDefect(.authenticationFailure)) }
            do {
                return .success(try Self.associatedData(name: name, header: header).withUnsafeBytes { aad in
                    try AESGCM.open(UnsafeRawBufferPointer(rebasing: file[Self.headerCount...]), key: dataKey.key,
                                    authenticating: aad)
                })
            } catch {
                return .failure(FileDefect(.authenticationFailure))
            }
        }
        guard case .success(var plaintext) = opened else {
            if case .failure(let defect) = opened { return .failure(defect) }
            return .failure(FileDefect(.malformed))
        }
        let total = plaintext.count
        let decoded: EntryMetadata?? = plaintext.withUnsafeBytes { raw in
            var trailer = ByteCursor(raw, offset: total - 4)
            guard total >= 4, let count = trailer.readUInt32().map(Int.init), count <= total - 4 else { return nil }
            let bodyCount = total - 4 - count
            return .some(MetadataCoding.decode(UnsafeRawBufferPointer(rebasing: raw[bodyCount..<total - 4]),
                                               bodyByteCount: bodyCount))
        }
        guard let found = decoded, let metadata = found, KeyDigest.hex(of: metadata.key) == name else {
            return .failure(FileDefect(.malformed))
        }
        plaintext.removeLast(total - metadata.bodyByteCount)
        return .success(StoredEntry(metadata: metadata, body: plaintext))
    }

    func readMetadata(from fd: Int32, size: Int, name: String) -> Result<EntryMetadata, FileDefect>? { nil }
}
