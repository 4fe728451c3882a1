import MediaCrypto

/// `audit verify`'s check of the tree files the log keeps beside its records (docs/audit-format.md, "Merkle
/// checkpoints"), in the chain's own pass (``add(_:)`` per record): each `tree-entries` entry is the `hash` of its
/// record, no entry outlives the records, and the signed `tree-checkpoint` names records the log holds, with the
/// root they give. Memory stays bounded: the tree's frontier and one batch of entries.
///
/// The files are read before the records, so a log still being written is not misjudged: entries written meanwhile
/// are not compared, and a checkpoint written meanwhile is not read.
public struct AuditTreeCheck {
    /// Entries read at a time: 4,096 (128 KiB).
    static let batchEntries = 4_096

    private let directory: String
    private let checkpoint: TreeCheckpoint?
    private let entryCount: Int
    private var frontier = MerkleFrontier()
    private var batchStart = 0
    private var batch: [SHA256Digest] = []
    /// The first problem found.
    public private(set) var problem: String?

    /// Reads the checkpoint (verified with `verifier`, the state directory's key; `nil` when it has none: no checkpoint
    /// was signed) and the entries' count, and adds the entries of the records `audit prune` removed.
    /// - Throws: ``AuditError`` `io` when a file cannot be read.
    public init(directory: String, verifier: NoteVerifier?) throws {
        self.directory = directory
        var checkpoint: TreeCheckpoint?
        var problem: String?
        if let verifier {
            do {
                checkpoint = try AuditTreeWriter.readCheckpoint(directory: directory, verifier: verifier)
            } catch let error as AuditError where error.code != .io {
                problem = "\(AuditTreeWriter.checkpointName) does not verify with this state directory's key: \(error.context)"
            }
        }
        self.checkpoint = checkpoint
        self.problem = problem
        entryCount = try AuditEntryFile.count(directory: directory)
        guard let pruned = try AuditCheckpoint.read(directory: directory) else { return }
        var index = 0
        while index < pruned.seq {
            let end = min(index + Self.batchEntries, pruned.seq)
            guard let entries = try AuditEntryFile.read(directory: directory, range: index..<end) else {
                self.problem = self.problem
                    ?? "\(AuditEntryFile.name) holds \(entryCount) entries; the records audit prune removed were \(pruned.seq)"
                return
            }
            for entry in entries { appendLeaf(entry) }
            index = end
        }
    }

    /// Adds the next record of the chain (`seq` order, after the pruned ones).
    public mutating func add(_ record: AuditRecord) {
        guard problem == nil else { return }
        guard record.seq == frontier.size + 1 else {
            problem = "seq \(record.seq) where \(frontier.size + 1) was due"
            return
        }
        let entry = AuditEntryFile.entry(record.hash)
        let index = record.seq - 1
        if index < entryCount {
            if !(batchStart..<(batchStart + batch.count)).contains(index) {
                let end = min(index + Self.batchEntries, entryCount)
                do {
                    batch = try AuditEntryFile.read(directory: directory, range: index..<end) ?? []
                } catch {
                    problem = "cannot read \(AuditEntryFile.name): \(error)"
                    return
                }
                batchStart = index
            }
            guard index - batchStart < batch.count, batch[index - batchStart] == entry else {
                problem = "\(AuditEntryFile.name) entry \(index) is not the hash of seq \(record.seq)"
                return
            }
        }
        appendLeaf(entry)
    }

    /// The first problem, once every record was added; `nil` when the tree files agree with the records.
    public func finish() -> String? {
        if let problem { return problem }
        if let checkpoint, checkpoint.size > frontier.size {
            return "\(AuditTreeWriter.checkpointName) names \(checkpoint.size) records and the log holds \(frontier.size)"
        }
        if entryCount > frontier.size {
            return "\(AuditEntryFile.name) holds \(entryCount) entries and the log \(frontier.size) records"
        }
        return nil
    }

    private mutating func appendLeaf(_ entry: SHA256Digest) {
        frontier.append(inline: MerkleTree.leafHash(inline: InlineSHA256Digest(entry)))
        if let checkpoint, frontier.size == checkpoint.size, frontier.root != checkpoint.root, problem == nil {
            problem = "the root in \(AuditTreeWriter.checkpointName) is not that of the log's first \(checkpoint.size) records"
        }
    }
}
