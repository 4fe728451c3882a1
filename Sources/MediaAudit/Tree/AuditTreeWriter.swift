import Glibc
import MediaCrypto

/// The audit log's side of its Merkle tree (``AuditTree``), kept by ``AuditLog`` under its lock:
/// - each record's entry (its `hash`), appended to `tree-entries` (``AuditEntryFile``) in batches; entries a crash
///   lost are taken again from the records when the log opens;
/// - the tree's right edge (``MerkleFrontier``), so a root costs a few hashes at any size;
/// - with a signer, the signed checkpoint (C2SP tlog-checkpoint, ``TreeCheckpoint``) in `tree-checkpoint`, replaced
///   every ``AuditLog/Configuration/checkpointEveryRecords`` records, at each rotation and at close. Its records and
///   entries are fsynced before it is written, so a checkpoint never names a record a crash could lose.
struct AuditTreeWriter {
    /// The signed checkpoint's file name in the audit folder.
    static let checkpointName = "tree-checkpoint"
    /// The frontier at the last checkpoint (8-byte big-endian size, then its subtree roots), so opening a large log
    /// hashes only the entries since.
    static let frontierName = "tree-frontier"
    /// Entries held in memory before they are written: 256 (8 KiB, one write).
    static let batchEntries = 256

    let directory: String
    let signer: NoteSigner?
    let every: Int
    /// Milliseconds records may wait for a checkpoint.
    let interval: Int64
    private(set) var frontier: MerkleFrontier
    /// The size of the last checkpoint written (0: none).
    private(set) var checkpointed: Int
    /// When it was written (or the log opened), in milliseconds of the log's clock.
    private(set) var checkpointedAt: Int64
    /// Entries not written to the file yet.
    private var pending: [UInt8] = []
    private var fd: Int32
    private var entriesPath: String { directory + "/" + AuditEntryFile.name }

    /// Opens `tree-entries` in `directory` for a log whose last record is `lastSeq`: drops a torn entry and entries past
    /// `lastSeq` (records a torn tail lost), adds the entries of records it lacks, and builds the frontier.
    /// - Throws: ``AuditError`` `io`; `corrupt-log` when records it lacks entries for were pruned.
    static func open(directory: String, lastSeq: Int, signer: NoteSigner?, every: Int, interval: Int64,
                     now: Int64) throws -> AuditTreeWriter {
        let path = directory + "/" + AuditEntryFile.name
        let fd = Glibc.open(path, O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw AuditFiles.ioError("open", path) }
        do {
            var entries = try AuditEntryFile.read(directory: directory)
            if entries.count > lastSeq { entries.removeLast(entries.count - lastSeq) }
            guard ftruncate(fd, off_t(entries.count * 32)) == 0 else { throw AuditFiles.ioError("ftruncate", path) }
            if entries.count < lastSeq {
                let have = entries.count
                var missing: [UInt8] = []
                try AuditReader.forEachRecord(directory: directory) { line, record in
                    guard record.seq > have, record.seq <= lastSeq else { return }
                    guard record.seq == entries.count + 1 else {
                        throw AuditError(.corruptLog, "\(AuditEntryFile.name) ends at seq \(entries.count) and the log's next record is seq \(record.seq) (\(line.file)): the records between were pruned")
                    }
                    let entry = AuditEntryFile.entry(record.hash)
                    entries.append(entry)
                    missing.append(contentsOf: entry.bytes)
                }
                guard entries.count == lastSeq else {
                    throw AuditError(.corruptLog, "\(AuditEntryFile.name) ends at seq \(entries.count) and the log's records before seq \(lastSeq) are gone")
                }
                try AuditFiles.writeAll(fd, missing, path: path)
            }
            let signed = Self.signedCheckpoint(directory: directory, signer: signer)
            // The frontier kept at the last checkpoint, when its root is the signed one; else rebuilt from every entry.
            var frontier = Self.keptFrontier(directory: directory, matching: signed, entries: entries.count) ?? MerkleFrontier()
            for entry in entries[frontier.size...] {
                frontier.append(inline: MerkleTree.leafHash(inline: InlineSHA256Digest(entry)))
            }
            let checkpointed = signed.map { min($0.size, lastSeq) } ?? 0
            return AuditTreeWriter(directory: directory, signer: signer, every: max(1, every), interval: interval,
                                   frontier: frontier, checkpointed: checkpointed, checkpointedAt: now, fd: fd)
        } catch {
            Glibc.close(fd)
            throw error
        }
    }

    private init(directory: String, signer: NoteSigner?, every: Int, interval: Int64, frontier: MerkleFrontier,
                 checkpointed: Int, checkpointedAt: Int64, fd: Int32) {
        (self.directory, self.signer, self.every, self.interval, self.frontier, self.checkpointed, self.checkpointedAt,
         self.fd) = (directory, signer, every, interval, frontier, checkpointed, checkpointedAt, fd)
    }

    /// The checkpoint in `tree-checkpoint` when `signer` signed it.
    static func signedCheckpoint(directory: String, signer: NoteSigner?) -> TreeCheckpoint? {
        guard let signer else { return nil }
        return try? readCheckpoint(directory: directory, verifier: NoteVerifier(signer))
    }

    /// The checkpoint in `tree-checkpoint` of `directory`, verified with `verifier`; `nil` when there is none yet.
    /// - Throws: ``AuditError`` `io` when the file cannot be read, `invalid-note` (or the verifier's error) when it is not a
    ///   checkpoint `verifier`'s key signed.
    static func readCheckpoint(directory: String, verifier: NoteVerifier) throws -> TreeCheckpoint? {
        guard let bytes = try AuditFiles.read(directory + "/" + checkpointName) else { return nil }
        return try TreeCheckpoint(text: verifier.open(String(decoding: bytes, as: UTF8.self)))
    }

    /// The frontier in `tree-frontier` when it is that of the signed `checkpoint` (same size and root) and the entries
    /// reach it; else `nil`.
    static func keptFrontier(directory: String, matching checkpoint: TreeCheckpoint?, entries: Int) -> MerkleFrontier? {
        guard let checkpoint, let bytes = try? AuditFiles.read(directory + "/" + frontierName), bytes.count >= 8,
              (bytes.count - 8) % 32 == 0 else { return nil }
        let size = bytes[0..<8].reduce(0) { $0 << 8 | Int($1) }
        let subtrees = stride(from: 8, to: bytes.count, by: 32).map { SHA256Digest(bytes: Array(bytes[$0..<($0 + 32)])) }
        guard let frontier = MerkleFrontier(size: size, subtrees: subtrees), size == checkpoint.size, size <= entries,
              frontier.root == checkpoint.root else { return nil }
        return frontier
    }

    /// Adds the record whose `hash` is `recordHash` (raw bytes): its leaf to the frontier, its entry to the pending
    /// batch; writes a full batch.
    /// - Throws: ``AuditError`` `io` when a batch cannot be written (its entries stay pending).
    mutating func append(_ recordHash: InlineSHA256Digest) throws {
        frontier.append(inline: MerkleTree.leafHash(inline: recordHash))
        recordHash.withBytes { pending.append(contentsOf: $0) }
        if pending.count >= Self.batchEntries * 32 { try writeEntries() }
    }

    /// Whether a checkpoint is due at `now`: ``every`` records since the last one, or records that waited ``interval``
    /// (never without a signer).
    func isCheckpointDue(now: Int64) -> Bool {
        signer != nil && frontier.size > checkpointed
            && (frontier.size - checkpointed >= every || now - checkpointedAt >= interval)
    }

    /// Writes the pending entries.
    mutating func writeEntries() throws {
        guard !pending.isEmpty else { return }
        try AuditFiles.writeAll(fd, pending, path: entriesPath)
        pending.removeAll(keepingCapacity: true)
    }

    /// Makes the entries durable and, with a signer, replaces `tree-checkpoint` with the signed checkpoint of every
    /// record so far (nothing when it names them already). The caller has fsynced the records.
    /// - Throws: ``AuditError`` `io`, `invalid-note` (signing failed).
    mutating func checkpoint(now: Int64) throws {
        try writeEntries()
        try AuditFiles.sync(fd, path: entriesPath)
        checkpointedAt = now
        guard let signer, frontier.size > 0, frontier.size != checkpointed else { return }
        let note = try signer.sign(TreeCheckpoint(origin: signer.name, size: frontier.size, root: frontier.root).text)
        let size = UInt64(frontier.size)
        let kept = (0..<8).reversed().map { UInt8(truncatingIfNeeded: size >> ($0 * 8)) } + frontier.subtrees.flatMap(\.bytes)
        try AuditFiles.writeAtomically(kept, to: directory + "/" + Self.frontierName)
        try AuditFiles.writeAtomically(Array(note.utf8), to: directory + "/" + Self.checkpointName)
        try AuditFiles.syncDirectory(directory)
        checkpointed = frontier.size
    }

    /// Closes the entries file (call ``checkpoint()`` first to keep the pending entries).
    mutating func close() {
        if fd >= 0 { Glibc.close(fd) }
        fd = -1
    }
}
