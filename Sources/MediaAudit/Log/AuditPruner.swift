import Foundation
import Glibc

/// Audit log retention: removes the oldest rotated segments and leaves an ``AuditCheckpoint`` so that
/// the rest still verifies and reconciles (docs/audit-format.md, "Retention"; `mediactl audit prune`).
///
/// Safe next to a running writer: only rotated segments, which the writer never touches again, are
/// removed, and never the newest ones. Copy the segments somewhere else first if the records must be
/// kept (they stay verifiable there with `prev`/`hash`).
public enum AuditPruner {
    /// What a prune did.
    public struct Result: Hashable, Sendable {
        /// Segments removed (0 when there were no more than the segments to keep).
        public var segments: Int
        /// `seq` of the first and last removed record (`nil` when nothing was removed).
        public var seqs: ClosedRange<Int>?
        /// Bytes of the removed segment files.
        public var bytes: Int
        /// The checkpoint now in place (`nil` when nothing was ever pruned).
        public var checkpoint: AuditCheckpoint?
        /// Stored objects (keys) the checkpoint carries (0 when nothing was removed).
        public var objects: Int

        public init(segments: Int, seqs: ClosedRange<Int>?, bytes: Int, checkpoint: AuditCheckpoint?, objects: Int = 0) {
            self.segments = segments
            self.seqs = seqs
            self.bytes = bytes
            self.checkpoint = checkpoint
            self.objects = objects
        }
    }

    /// Removes all rotated segments but the newest `keepSegments`, after writing the checkpoint at the
    /// last record they hold.
    ///
    /// The removed segments are verified first, from the current checkpoint (or `seq` 1): a prune never
    /// removes evidence of a broken chain, nor, given `allowedStorage` (tier → widest storage its policy
    /// allows, as ``AuditReconciler`` takes it), a `store` record the policies forbid, nor (with or without
    /// `allowedStorage`) a variant's `store` record that does not match its source (the variant violations
    /// of ``AuditReconciliation``, judged from the current checkpoint's objects on). The last `store` (then
    /// any later `update`) of every key still stored at the last removed record is carried into the
    /// checkpoint: `disk` and `encrypted-disk` objects, and `memory` ones stored since the last `start` or
    /// `stop` (memory objects do not outlive their process, but they outlive a prune and may be the source
    /// of a later variant).
    /// - Parameter keepSegments: rotated segments to keep, ≥ 1 (the writer continues the chain from the
    ///   newest file, so it is never removed).
    /// - Throws: ``AuditError/Code/invalidNumber`` when `keepSegments` < 1; ``AuditError/Code/pruneRefused``
    ///   when the segments to remove do not verify, hold a forbidden `store` or a variant violation, do not
    ///   link to the first record kept, or the checkpoint is invalid (the context, `refusing to prune: …`, names the failure; nothing
    ///   is removed); ``AuditError/Code/io``. Waits for a running reader or prune (see `prune.lock`).
    public static func prune(
        directory: String, keepSegments: Int, allowedStorage: [String: AuditStorage]? = nil
    ) throws -> Result {
        guard keepSegments >= 1 else {
            throw AuditError(.invalidNumber, "keepSegments must be >= 1, got \(keepSegments)")
        }
        let lock = try AuditFiles.lockPrune(directory, exclusive: true)
        defer { if let lock { close(lock) } }
        let segments = AuditFiles.rotatedSegments(in: directory)
        func refusing(_ error: any Error) -> any Error {
            guard let error = error as? AuditError, error.code == .corruptLog else { return error }
            return AuditError(.pruneRefused, "refusing to prune: invalid-checkpoint: \(error.context)")
        }
        let existing: AuditCheckpoint?
        do { existing = try AuditCheckpoint.read(directory: directory) } catch { throw refusing(error) }
        let removable = Array(segments.dropLast(keepSegments))
        guard !removable.isEmpty else { return Result(segments: 0, seqs: nil, bytes: 0, checkpoint: existing) }
        // Segments a prune interrupted after its checkpoint left: covered by it, removed unread.
        let leftovers = removable.filter { $0.index <= (existing?.segment ?? 0) }
        let toVerify = removable.filter { $0.index > (existing?.segment ?? 0) }
        if toVerify.isEmpty, let existing {
            let bytes = try remove(leftovers, in: directory)
            return Result(segments: leftovers.count, seqs: nil, bytes: bytes, checkpoint: existing)
        }

        var check = AuditChainCheck(after: existing)
        var present: [String: [Carried]] = [:]  // key → its last store, then any later update
        // Judges the records to remove: by the policies when given, and variants against their sources
        // (the checkpoint's objects being the earlier records).
        var judged = AuditReconciliation(objectKeys: [], allowedStorage: allowedStorage ?? [:])
        judged.judgesStoresByPolicy = allowedStorage != nil
        do {
            try existing?.forEachObject(directory: directory) { record in
                guard let key = record.key?.hex else { return }
                present[key, default: []].append(Carried(
                    seq: record.seq, line: record.canonicalJSON(includingHash: true),
                    storage: record.storage ?? AuditStorage.none))
                judged.seed(record)
            }
        } catch {
            throw refusing(error)
        }
        // The removed records' Merkle entries stay in `tree-entries`: each must be there and be its record's hash.
        let entries = try AuditFiles.read(directory + "/" + AuditEntryFile.name) ?? []
        var entryProblem: String?
        try AuditReader.forEachLine(files: toVerify.map(\.path)) { line in
            guard let record = check.check(line), !check.hasFailure else { return }
            carry(record, line: line.text, into: &present)
            judged.add(record)
            if entryProblem == nil { entryProblem = entryMismatch(record, in: entries) }
        }
        let verification = check.verification
        if let failure = verification.failure {
            throw AuditError(.pruneRefused, "refusing to prune: \(failure.kind) at seq \(failure.seq) "
                + "(\(failure.file) line \(failure.line)): \(failure.detail)")
        }
        guard verification.recordCount > 0 else {
            throw AuditError(.pruneRefused, "refusing to prune: the segments to remove hold no record")
        }
        let violations = judged.storeViolationsFound
        if let firstViolation = violations.first {
            throw AuditError(.pruneRefused, "refusing to prune: the segments to remove hold \(violations.count) "
                + "record\(violations.count == 1 ? "" : "s") the policies forbid (first: \(firstViolation.kind) at seq "
                + "\(firstViolation.seq ?? 0): \(firstViolation.evidence)); resolve them, or prune with the policies they were written under")
        }
        let variants = judged.variantViolationsFound
        if let firstVariant = variants.first {
            throw AuditError(.pruneRefused, "refusing to prune: the segments to remove hold \(variants.count) variant "
                + "violation\(variants.count == 1 ? "" : "s") (first: \(firstVariant.kind) at seq \(firstVariant.seq ?? 0): "
                + "\(firstVariant.evidence)); a variant must keep its source's tier and partition and no wider storage")
        }
        let first = (existing?.seq ?? 0) + 1
        let last = first + verification.recordCount - 1
        // The first record kept must continue the chain: otherwise the break would be removed with the
        // segments and the kept log could never verify again.
        if let kept = segments.first(where: { $0.index > toVerify.last!.index }) {
            var link = AuditChainCheck(after: AuditCheckpoint(
                seq: last, hash: verification.lastHash, segment: toVerify.last!.index, objectCount: 0, objectsDigest: .zero))
            try firstLine(of: kept.path).map { _ = link.check($0) }
            if let failure = link.verification.failure {
                throw AuditError(.pruneRefused, "refusing to prune: the first record kept does not continue the chain: "
                    + "\(failure.kind) at seq \(failure.seq) (\(failure.file) line \(failure.line)): \(failure.detail)")
            }
        }
        if let entryProblem { throw AuditError(.pruneRefused, "refusing to prune: \(entryProblem)") }
        let lines = present.values.flatMap { $0 }.sorted { $0.seq < $1.seq }.map(\.line)
        let objects = present.count
        present = [:]
        let checkpoint = try AuditCheckpoint.write(
            directory: directory, seq: last, hash: verification.lastHash, segment: toVerify.last!.index,
            objectLines: lines)
        // The previous checkpoint's objects file, and any an interrupted prune left, are replaced now.
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        for name in names where name.hasPrefix("checkpoint-") && name != checkpoint.objectsFileName {
            unlink(directory + "/" + name)
        }
        let bytes = try remove(removable, in: directory)
        return Result(segments: removable.count, seqs: first...last, bytes: bytes, checkpoint: checkpoint, objects: objects)
    }

    /// Why `entries` (the bytes of `tree-entries`) do not hold `record`'s Merkle entry, or `nil` when they do.
    static func entryMismatch(_ record: AuditRecord, in entries: [UInt8]) -> String? {
        let end = record.seq * 32
        guard entries.count >= end else {
            return "\(AuditEntryFile.name) holds \(entries.count / 32) entries and the segments to remove reach seq \(record.seq): "
                + "the Merkle tree would lose them (the writer adds missing entries when it opens the log)"
        }
        guard entries[(end - 32)..<end].elementsEqual(AuditEntryFile.entry(record.hash).bytes) else {
            return "\(AuditEntryFile.name) entry \(record.seq - 1) is not the hash of seq \(record.seq)"
        }
        return nil
    }

    /// The first line of the file at `path`, or `nil` when it is empty.
    private static func firstLine(of path: String) throws -> AuditReader.Line? {
        struct Found: Error { let line: AuditReader.Line }
        do {
            try AuditReader.forEachLine(files: [path]) { throw Found(line: $0) }
        } catch let found as Found {
            return found.line
        }
        return nil
    }

    /// Unlinks `segments` (oldest first) and fsyncs the folder; returns the bytes they held.
    private static func remove(_ segments: [(index: Int, path: String)], in directory: String) throws -> Int {
        var bytes = 0
        for segment in segments {
            var info = stat()
            if stat(segment.path, &info) == 0 { bytes += Int(info.st_size) }
            guard unlink(segment.path) == 0 || errno == ENOENT else { throw AuditFiles.ioError("unlink", segment.path) }
        }
        try AuditFiles.syncDirectory(directory)
        return bytes
    }

    /// One carried record: its `seq`, canonical line and storage class (`none` when null).
    struct Carried: Hashable, Sendable {
        var seq: Int
        var line: String
        var storage: AuditStorage
    }

    /// Folds one record (and its canonical `line`) into the stored objects: a `store` starts a key's list,
    /// an `update` is appended (or starts it, for a key removed before), a removal drops the key, and a
    /// `start` or `stop` drops the keys last recorded in `memory` (or `none`): their objects died with the
    /// process.
    static func carry(_ record: AuditRecord, line: String, into present: inout [String: [Carried]]) {
        if record.event == .start || record.event == .stop {
            present = present.filter { $0.value.last!.storage > .memory }
            return
        }
        guard let key = record.key?.hex else { return }
        let carried = Carried(seq: record.seq, line: line, storage: record.storage ?? AuditStorage.none)
        switch record.event {
        case .store:
            present[key] = [carried]
        case .update:
            // An update of a key no longer carried (a 304 that wrote the entry again after its eviction)
            // is carried alone: it is that object's record.
            present[key] = [present[key]?[0], carried].compactMap { $0 }
        default:
            if record.event.removesObject { present[key] = nil }
        }
    }
}
