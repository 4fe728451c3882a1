import MediaCrypto

extension DiskFileFormat {
    /// What ``examine(_:size:name:key:)`` found in one disk file, for the read-only inventory of `mediactl audit`.
    struct Examination {
        /// The metadata, when the header tag verifies (version 2, with the key) and the key matches the name.
        var metadata: EntryMetadata?
        /// B, when the file has the layout of version 1 or 2 and the lengths match its size.
        var bodyBytes: Int?
        /// The body digest (``IntegrityKey/bodyDigest(of:)``) of bytes [52+M, 52+M+B), computed with a key
        /// whenever the layout is sound, whether or not the tags verify (a body swapped without the key has
        /// another digest than its `store` record names).
        var bodyDigest: [UInt8]?
        /// The first reason the file is not a verified version 2 entry, or `nil`.
        var defect: InventoryDefect?
    }

    /// Bytes of body read at once while digesting: 1 MiB.
    static let examinationChunkCount = 1 << 20

    /// Reads the whole file of `size` bytes at `fd` (the body in chunks of ``examinationChunkCount``), never
    /// writing. Defects: `not-a-disk-entry` with the reason (`truncated`, `bad-magic`, `foreign-version` for
    /// version 1 and others, `bad-checksum` when the header or the file tag does not verify, `malformed`), or,
    /// without `key`, `unverified` (the tags cannot be checked; the metadata is not trusted, so no tier).
    static func examine(_ fd: Int32, size: Int, name: String, key: IntegrityKey?) -> Examination {
        var found = Examination()
        func defect(_ reason: StorageEvent.Reason) -> Examination {
            found.defect = InventoryDefect(.notADiskEntry, reason.rawValue)
            return found
        }
        let layoutResult = readLayout(fd, size: size, versions: sameLayoutVersions)
        guard case .success(let (layout, _)) = layoutResult else {
            if case .failure(let failure) = layoutResult { return defect(failure.reason) }
            return defect(.malformed)
        }
        found.bodyBytes = layout.bodyCount
        guard let prefix = POSIX.read(fd, count: layout.prefixCount, at: 0) else { return defect(.truncated) }
        guard let key else {
            if layout.version != version { return defect(.foreignVersion) }
            found.defect = InventoryDefect(.unverified, "no integrity key to check its tags")
            return found
        }
        guard let digest = bodyDigest(fd, at: layout.prefixCount, count: layout.bodyCount, key: key),
              let tag = POSIX.read(fd, count: tagCount, at: layout.prefixCount + layout.bodyCount) else {
            return defect(.truncated)
        }
        found.bodyDigest = digest
        guard layout.version == version else { return defect(.foreignVersion) }
        let format = DiskFileFormat(key: key)
        switch format.verifyPrefix(prefix, bodyCount: layout.bodyCount, name: name) {
        case .failure(let failure):
            return defect(failure.reason)
        case .success(let metadata):
            guard ConstantTime.equals(format.fileTag(prefix: prefix, bodyDigest: digest), tag) else {
                return defect(.badChecksum)
            }
            found.metadata = metadata
            return found
        }
    }

    /// The body digest of `count` bytes at `offset`, read in chunks; `nil` on a short read.
    private static func bodyDigest(_ fd: Int32, at offset: Int, count: Int, key: IntegrityKey) -> [UInt8]? {
        var hasher = key.bodyKey.makeHasher()
        var buffer = [UInt8](repeating: 0, count: max(1, min(count, examinationChunkCount)))
        var done = 0
        while done < count {
            let length = min(count - done, buffer.count)
            let read = buffer.withUnsafeMutableBytes { raw in
                POSIX.readExactly(fd, into: UnsafeMutableRawBufferPointer(rebasing: raw[0..<length]), at: offset + done)
            }
            guard read else { return nil }
            buffer.withUnsafeBytes { hasher.update(UnsafeRawBufferPointer(rebasing: $0[0..<length])) }
            done += length
        }
        return hasher.finalize()
    }
}
