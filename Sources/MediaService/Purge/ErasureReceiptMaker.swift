import MediaAudit
import MediaCrypto

extension PurgeStage {
    /// ``purge(_:)`` of a credential's or subject's partition, with its signed erasure receipt (``ErasureReceiptMaker``).
    /// - Throws: as ``purge(_:)``; ``ServiceError`` `invalid-purge` for another scope (nothing is purged), `audit` without
    ///   an audit log file, or when no receipt can be made (the purge is done by then).
    func purgeWithReceipt(_ scope: PurgeScope, log: AuditLog?) throws -> (count: Int, receipt: String) {
        switch scope {
        case .credential, .subject: break
        default: throw ServiceError(.invalidPurge, "a receipt is made for a purge by credential or subject only")
        }
        guard let log else { throw ServiceError(.audit, "the service keeps no audit log file to prove the purge with") }
        let report = try purgeReporting(scope)
        return (report.removed.count, try ErasureReceiptMaker.receipt(for: report, log: log))
    }
}

/// The signed erasure receipt of a partition's purge (``MediaAudit/ErasureReceipt``, docs/audit-format.md "Erasure
/// receipts"): the log writes a checkpoint now, the purge's summary record is proved included in it from the log's
/// tree, and the log's key signs the receipt.
enum ErasureReceiptMaker {
    /// The receipt file's text for `report`, a purge by credential or subject.
    /// - Throws: ``ServiceError`` `audit` when the log cannot checkpoint, has no signing key, or its tree cannot be read;
    ///   `invalid-purge` for a purge of no partition.
    static func receipt(for report: PurgeStage.Report, log: AuditLog) throws(ServiceError) -> String {
        guard let partition = report.partition, let summary = report.summary else {
            throw ServiceError(.invalidPurge, "a receipt is made for a purge by credential or subject only")
        }
        guard let signer = log.signer else { throw ServiceError(.audit, "the audit log has no signing key") }
        do {
            let note = try log.checkpointNow()
            let checkpoint = try TreeCheckpoint(text: NoteVerifier(signer).open(note))
            // The checkpoint made the entries durable: the proof is computed from them, not from the records.
            let tree = try AuditTree.read(directory: log.directory, entries: checkpoint.size)
            guard summary.seq <= checkpoint.size, checkpoint.size <= tree.size else {
                throw AuditError(.corruptLog, "the checkpoint of \(checkpoint.size) records does not cover seq \(summary.seq)")
            }
            let proof = MerkleTree.inclusionProof(index: summary.seq - 1, tree.leaves[..<checkpoint.size])
            let removed = Dictionary(grouping: report.removed, by: \.tier).map { tier, entries in
                ErasureReceipt.Removal(tier: tier, objects: entries.count, bytes: entries.reduce(0) { $0 + $1.bodyByteCount })
            }
            let receipt = ErasureReceipt(
                log: signer.name, partition: partition, reason: summary.reason?.rawValue ?? "", purgedAt: summary.time.rfc3339,
                removed: removed, destroyedKeys: report.destroyedKeys,
                proof: TlogProof(index: summary.seq - 1, proof: proof, checkpoint: note),
                record: summary.canonicalJSON(includingHash: true))
            return try receipt.signed(by: signer)
        } catch {
            throw ServiceError(.audit, "the erasure receipt could not be made: \(error)")
        }
    }
}
