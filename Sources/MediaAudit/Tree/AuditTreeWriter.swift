import Glibc
import MediaCrypto

/// The audit log's side of its Merkle tree (``AuditTree``), kept by ``AuditLog`` under its lock:
/// - each record's leaf hash, appended to `tree-leaves` (``AuditLeafFile``) in batches; leaves a crash lost are
///   made again from the records when the log opens;
/// - the tree's right edge (``MerkleFrontier``), so a root costs a few hashes at any size;
/// - with a signer, the signed checkpoint (C2SP tlog-checkpoint, ``TreeCheckpoint``) in `tree-checkpoint`, replaced
///   every ``AuditLog/Configuration/checkpointEveryRecords`` records, at each rotation and at close. Its records and
///   leaves are fsynced before it is written, so a checkpoint never names a record a crash could lose.
struct AuditTreeWriter {
    /// The signed checkpoint's file name in the audit folder.
    static let checkpointName = "tree-checkpoint"
    /// Leaves held in memory before they are written: 256 (8 KiB, one write).
    static let batchLeaves = 256

    let directory: String
    let signer: NoteSigner?
    let every: Int
    private(set) var frontier: MerkleFrontier
    /// The size of the last checkpoint written (0: none).
    private(set) var checkpointed: Int
    /// Leaf hashes not written to the file yet.
    private var pending: [UInt8] = []
    private var fd: Int32
    private var leavesPath: String { directory + "/" + AuditLeafFile.name }

    /// Opens `tree-leaves` in `directory` for a log whose last record is `lastSeq`: drops a torn leaf and leaves past
    /// `lastSeq` (records a torn tail lost), adds the leaves of records it lacks, and builds the frontier.
    /// - Throws: ``AuditError`` `io`; `corrupt-log` when records it lacks leaves for were pruned.
    static func open(directory: String, lastSeq: Int, signer: NoteSigner?, every: Int) throws -> AuditTreeWriter {
        let path = directory + "/" + AuditLeafFile.name
        let fd = Glibc.open(path, O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw AuditFiles.ioError("open", path) }
        do {
            var leaves = AuditLeafFile.leaves(in: try AuditFiles.read(path) ?? [])
            if leaves.count > lastSeq { leaves.removeLast(leaves.count - lastSeq) }
            guard ftruncate(fd, off_t(leaves.count * 32)) == 0 else { throw AuditFiles.ioError("ftruncate", path) }
            var missing: [UInt8] = []
            if leaves.count < lastSeq {
                let have = leaves.count
                try AuditReader.forEachRecord(directory: directory) { line, record in
                    guard record.seq > have, record.seq <= lastSeq else { return }
                    guard record.seq == leaves.count + 1 else {
                        throw AuditError(.corruptLog, "\(AuditLeafFile.name) ends at seq \(leaves.count) and the log's next record is seq \(record.seq) (\(line.file)): the records between were pruned")
                    }
                    let leaf = AuditTree.leafHash(record.hash)
                    leaves.append(leaf)
                    missing.append(contentsOf: leaf.bytes)
                }
                guard leaves.count == lastSeq else {
                    throw AuditError(.corruptLog, "\(AuditLeafFile.name) ends at seq \(leaves.count) and the log's records before seq \(lastSeq) are gone")
                }
                try AuditFiles.writeAll(fd, missing, path: path)
            }
            var frontier = MerkleFrontier()
            for leaf in leaves { frontier.append(leaf) }
            let checkpointed = Self.signedSize(directory: directory, signer: signer).map { min($0, lastSeq) } ?? 0
            return AuditTreeWriter(directory: directory, signer: signer, every: max(1, every), frontier: frontier,
                                   checkpointed: checkpointed, fd: fd)
        } catch {
            Glibc.close(fd)
            throw error
        }
    }

    private init(directory: String, signer: NoteSigner?, every: Int, frontier: MerkleFrontier, checkpointed: Int,
                 fd: Int32) {
        (self.directory, self.signer, self.every, self.frontier, self.checkpointed, self.fd)
            = (directory, signer, every, frontier, checkpointed, fd)
    }

    /// The size of the checkpoint in `tree-checkpoint` when `signer` signed it.
    static func signedSize(directory: String, signer: NoteSigner?) -> Int? {
        guard let signer, let bytes = try? AuditFiles.read(directory + "/" + checkpointName),
              let text = try? NoteVerifier(signer).open(String(decoding: bytes, as: UTF8.self)),
              let checkpoint = try? TreeCheckpoint(text: text) else { return nil }
        return checkpoint.size
    }

    /// Adds the leaf of the record whose `hash` is `recordHash` (raw bytes); writes a full batch of leaves.
    /// - Throws: ``AuditError`` `io` when a batch cannot be written (its leaves stay pending).
    mutating func append(_ recordHash: SHA256Digest) throws {
        let leaf = MerkleTree.leafHash(digest: recordHash)
        frontier.append(leaf)
        pending.append(contentsOf: leaf.bytes)
        if pending.count >= Self.batchLeaves * 32 { try writeLeaves() }
    }

    /// Whether a checkpoint is due: ``every`` records since the last one (never without a signer).
    var isCheckpointDue: Bool { signer != nil && frontier.size - checkpointed >= every }

    /// Writes the pending leaves.
    mutating func writeLeaves() throws {
        guard !pending.isEmpty else { return }
        try AuditFiles.writeAll(fd, pending, path: leavesPath)
        pending.removeAll(keepingCapacity: true)
    }

    /// Makes the leaves durable and, with a signer, replaces `tree-checkpoint` with the signed checkpoint of every
    /// record so far (nothing when it names them already). The caller has fsynced the records.
    /// - Throws: ``AuditError`` `io`, `invalid-note` (signing failed).
    mutating func checkpoint() throws {
        try writeLeaves()
        try AuditFiles.sync(fd, path: leavesPath)
        guard let signer, frontier.size > 0, frontier.size != checkpointed else { return }
        let note = try signer.sign(TreeCheckpoint(origin: signer.name, size: frontier.size, root: frontier.root).text)
        try AuditFiles.writeAtomically(Array(note.utf8), to: directory + "/" + Self.checkpointName)
        try AuditFiles.syncDirectory(directory)
        checkpointed = frontier.size
    }

    /// Closes the leaves file (call ``checkpoint()`` first to keep the pending leaves).
    mutating func close() {
        if fd >= 0 { Glibc.close(fd) }
        fd = -1
    }
}
