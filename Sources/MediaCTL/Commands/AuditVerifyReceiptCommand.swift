import Foundation
import MediaAudit
import MediaCrypto
import MediaStorage

/// `mediactl audit verify-receipt RECEIPT [--state-dir DIR]`: checks an erasure receipt (``MediaAudit/ErasureReceipt``,
/// written by `purge --receipt`) against the state directory it came from:
/// 1. its signature, by the state directory's audit key;
/// 2. the inclusion of its purge record: the proof leads from the log's record to the receipt's signed checkpoint, and
///    the log still holds the tree that checkpoint signed (a purge record removed and the chain re-hashed fails here);
/// 3. that no object of the partition stored before the purge remains in `disk/` or `sealed/` (a file restored from a
///    backup fails here, also when its `store` record was pruned since: the prune's checkpoint carries it), and no
///    sealed file under a data key the purge destroyed (whatever the log still says of it);
/// 4. that every `store` of the partition after the purge is a later request's: each is counted in the output.
/// Exit 0 with `ok: …`; 1 with the reason; 2 for a receipt file or state directory that cannot be read.
public struct AuditVerifyReceiptCommand: MediaCommand {
    /// The receipt's file.
    public var receipt: String = ""
    /// `--state-dir DIR`. Default: `$MEDIACTL_STATE_DIR`, else `./.mediactl`.
    public var stateDirectory: String = CommandDefaults.stateDirectory

    public static let declaration = CommandDeclaration<Self>(
        path: ["audit", "verify-receipt"],
        summary: "Check an erasure receipt against the state directory it came from.",
        arguments: [
            .positional("RECEIPT", help: "File of the receipt (purge --receipt's output).", \.receipt),
            .stateDirectory(\.stateDirectory),
        ],
        notes: [CommandTree.exitCodes(ok: "the receipt holds", failure: "a check failed (the reason is printed)")],
        defaults: { Self() })

    public func run(in environment: CommandEnvironment, context: CommandContext) async -> ExitCode {
        do throws(CommandError) {
            let line = try check()
            context.stdout.writeLine(line)
            return .success
        } catch {
            return context.fail(error)
        }
    }

    /// The receipt text in `data`: the file itself, or in a fleet's file (`purge --replicas --receipt`), the receipt
    /// of the entry signed by `log`.
    /// - Throws: ``CommandError`` `receipt-failed` when a fleet's file has no entry of `log`, or its entry failed.
    static func replicaReceipt(in data: Data, log: String) throws(CommandError) -> String {
        guard let fleet = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any],
              let entries = fleet["replicas"] as? [[String: Any]] else { return String(decoding: data, as: UTF8.self) }
        for entry in entries {
            guard let document = entry["receipt"] as? [String: Any], let body = document["receipt"] as? [String: Any],
                  body["log"] as? String == log,
                  let text = try? JSONSerialization.data(withJSONObject: document) else { continue }
            return String(decoding: text, as: UTF8.self)
        }
        let statuses = entries.map { "\($0["replica"] as? String ?? "?"): \($0["status"] as? String ?? "?")" }.joined(separator: "; ")
        throw CommandError(.receiptFailed, "no replica's receipt in it is signed by this log (\(log)); replicas: \(statuses)", exitCode: .failure)
    }

    /// The four checks; the `ok: …` line.
    /// - Throws: ``CommandError`` `receipt-failed` (exit 1) naming the failed check; `unreadable-file`,
    ///   `no-signing-key`, `no-audit-log` (exit 2).
    func check() throws(CommandError) -> String {
        func failed(_ why: String) -> CommandError { CommandError(.receiptFailed, "receipt '\(receipt)': \(why)", exitCode: .failure) }
        guard let data = FileManager.default.contents(atPath: receipt) else {
            throw CommandError(.unreadableFile, "cannot read '\(receipt)'", exitCode: .unusableInput)
        }
        let verifier = NoteVerifier(try AuditTreeAccess.signer(stateDirectory: stateDirectory))
        let text: String
        do {
            text = try Self.replicaReceipt(in: data, log: verifier.name)
        } catch {
            throw failed(error.message)
        }
        let opened: ErasureReceipt
        do {
            opened = try ErasureReceipt.open(text, verifier: verifier)
        } catch {
            throw failed("not a receipt signed by this log's key (\(error.context))")
        }
        let checkpoint: TreeCheckpoint
        do {
            checkpoint = try TreeCheckpoint(text: verifier.open(opened.proof.checkpoint))
        } catch {
            throw failed("its checkpoint is not signed by this log's key (\(error.context))")
        }
        let index = opened.proof.index
        let purgeSeq = index + 1
        // Read with the tree, in the same pass, after the records a prune carried into its checkpoint: the last
        // store/update of every key, with its partition, and the stores of the partition after the purge.
        var lastWrite: [String: (seq: Int, partition: String?)] = [:]
        var storedSince = 0
        func visit(_ record: AuditRecord) {
            guard record.event == .store || record.event == .update, let key = record.key?.hex else { return }
            lastWrite[key] = (record.seq, record.partition?.hex)
            if record.event == .store, record.seq > purgeSeq, record.partition?.hex == opened.partition { storedSince += 1 }
        }
        let tree = try AuditTreeAccess.tree(stateDirectory: stateDirectory, checkpointObjects: visit, visiting: visit)
        guard checkpoint.size <= tree.size, index < checkpoint.size,
              MerkleTree.root(tree.leaves[..<checkpoint.size]) == checkpoint.root else {
            throw failed("the log no longer holds the tree its checkpoint of \(checkpoint.size) records signed: records were changed or removed since")
        }
        // The receipt's record: its hash is its own, and its leaf is the log's at the index.
        guard let record = try? AuditRecord.parse(line: opened.record),
              AuditRecord(seq: record.seq, time: record.time, entry: record.entry, prev: record.prev).hash == record.hash,
              record.seq == index + 1, AuditTree.leafHash(record.hash) == tree.leaves[index] else {
            throw failed("its record is not record \(index + 1) of the log")
        }
        guard MerkleTree.verifyInclusion(leaf: tree.leaves[index], index: index, size: checkpoint.size,
                                         proof: opened.proof.proof, root: checkpoint.root) else {
            throw failed("its proof does not lead from record \(index + 1) to its checkpoint")
        }
        guard record.event == .purge, record.key == nil, record.partition?.hex == opened.partition,
              record.reason?.rawValue == opened.reason else {
            throw failed("record \(index + 1) is not the summary of a purge of its partition")
        }
        let objects: [InventoryItem]
        do {
            objects = try StateInventory.scan(stateDirectory: stateDirectory, integrityKey: nil).objects
        } catch {
            throw CommandError(.unreadableFile, "cannot scan '\(stateDirectory)': \(error)", exitCode: .unusableInput)
        }
        let destroyed = Set(opened.destroyedKeys)
        for object in objects.sorted(by: { $0.path < $1.path }) {
            if let write = lastWrite[object.name], write.partition == opened.partition, write.seq < purgeSeq {
                throw failed("\(object.path) of the partition, stored by record \(write.seq), is still present after the purge")
            }
            if let key = object.sealedKeyID, destroyed.contains(key) {
                throw failed("\(object.path), sealed with data key \(key) the purge destroyed, is still present after the purge")
            }
        }
        let removed = opened.removed.reduce(0) { $0 + $1.objects }
        return "ok: \(opened.reason) of partition \(opened.partition.prefix(16))… at \(opened.purgedAt): record \(purgeSeq) is in the "
            + "log's checkpoint of \(checkpoint.size) records; \(removed) object\(removed == 1 ? "" : "s") removed, none of the partition "
            + "stored before it remains; \(storedSince) stored since by new requests"
    }
}
