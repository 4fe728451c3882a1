import Glibc

/// Re-verifies an audit log: seq continuity, `prev` links and every `hash`, across rotated segments.
public enum AuditVerifier {
    /// Verifies `<stateDirectory>/audit`. Same as ``verify(directory:)``.
    public static func verify(stateDirectory: String) throws -> AuditVerification {
        try verify(directory: stateDirectory + "/audit")
    }

    /// Verifies every file of the audit folder `directory` in chain order and stops at the first failure.
    ///
    /// Per line: a missing trailing newline is `torn-line`; a non-object `invalid-json`; a bad field
    /// `invalid-record`; a `seq` other than the expected one `seq-order` (when it is lower, or the expected
    /// one appears later) or `seq-gap`; a wrong `prev` `prev-mismatch`; a wrong `hash` `hash-mismatch`;
    /// a correct record whose line differs from its canonical JSON (extra spaces, escapes, key order)
    /// `invalid-record`.
    /// An empty or missing folder is intact with 0 records.
    ///
    /// Streams the folder (``AuditReader/forEachLine(directory:_:)``, ``AuditChainCheck``): memory does
    /// not grow with the log's size, and reading stops once the outcome is settled.
    /// - Throws: ``AuditError/Code/io`` only when a file cannot be read.
    public static func verify(directory: String) throws -> AuditVerification {
        try stream(directory: directory, stopWhenSettled: true) { _ in }.verification
    }

    /// One streamed pass over the audit folder `directory`: checks the ``AuditCheckpoint`` when there is
    /// one (its objects file's count and digest, and with `checkpointObjects` every object record, handed
    /// over first), then verifies the chain from it and hands `body` every complete record after it, in
    /// chain order, intact or not. Holds `prune.lock` shared meanwhile, so a prune waits for the pass
    /// (and the pass for a running prune).
    /// - Parameter stopWhenSettled: stop reading at the first failure whose kind is final.
    /// - Returns: the verification, and the checkpoint the pass started from.
    /// - Throws: ``AuditError/Code/io`` when a file cannot be read. A damaged checkpoint is the
    ///   verification's `invalid-checkpoint` failure.
    public static func stream(
        directory: String, stopWhenSettled: Bool = false, checkpointObjects: ((AuditRecord) -> Void)? = nil,
        _ body: (AuditRecord) -> Void
    ) throws -> (verification: AuditVerification, checkpoint: AuditCheckpoint?) {
        struct Settled: Error {}
        // A prune waits for this pass to finish, and the pass for a running prune.
        let lock = (try? AuditFiles.lockPrune(directory, exclusive: false)) ?? nil
        defer { if let lock { close(lock) } }
        let files = AuditReader.files(directory: directory)
        // A damaged checkpoint is a broken chain (its start cannot be trusted), not an unreadable log:
        // the pass goes on (the report still judges what it can) and the failure is the checkpoint's.
        var checkpoint: AuditCheckpoint?
        var checkpointFailure: AuditVerification.Failure?
        func invalid(_ error: AuditError, file: String, seq: Int) -> AuditVerification.Failure {
            let detail = error.context.split(separator: ": ", maxSplits: 1).last.map(String.init) ?? error.context
            return .init(kind: .invalidCheckpoint, seq: seq, file: file, line: 1, detail: detail)
        }
        do {
            checkpoint = try AuditCheckpoint.read(directory: directory)
        } catch let error as AuditError where error.code == .corruptLog {
            checkpointFailure = invalid(error, file: AuditCheckpoint.fileName, seq: 0)
        }
        if let current = checkpoint {
            do {
                try current.forEachObject(directory: directory, checkpointObjects.map { seed in { seed($0) } })
            } catch let error as AuditError where error.code == .corruptLog {
                checkpointFailure = invalid(error, file: current.objectsFileName, seq: current.seq)
            }
        }
        var check = AuditChainCheck(after: checkpoint)
        do {
            try AuditReader.forEachLine(files: files) { line in
                if let record = check.check(line), line.terminated { body(record) }
                if stopWhenSettled && check.isSettled { throw Settled() }
            }
        } catch is Settled {}
        if let checkpointFailure {
            let verification = AuditVerification(
                recordCount: 0, lastHash: checkpoint?.hash ?? .zero, failure: checkpointFailure,
                checkpointSeq: checkpoint?.seq ?? 0)
            return (verification, checkpoint)
        }
        return (check.verification, checkpoint)
    }

    /// Verifies records already in memory (e.g. ``InMemoryAuditLog/records``): `seq` continuity, `prev` and
    /// `hash`. Failures name file `memory` and the 1-based position as the line.
    public static func verify(records: [AuditRecord]) -> AuditVerification {
        var prev = AuditDigest.zero
        for (index, record) in records.enumerated() {
            let expected = index + 1
            func fail(_ kind: AuditVerification.Kind, _ seq: Int, _ detail: String) -> AuditVerification {
                AuditVerification(
                    recordCount: index, lastHash: prev,
                    failure: .init(kind: kind, seq: seq, file: "memory", line: expected, detail: detail))
            }
            if record.seq != expected {
                let later = records[(index + 1)...].contains { $0.seq == expected }
                return fail(record.seq < expected || later ? .seqOrder : .seqGap, expected,
                            "expected seq \(expected), found \(record.seq)")
            }
            if record.prev != prev {
                return fail(.prevMismatch, record.seq, "prev \(record.prev.hex) is not the previous hash \(prev.hex)")
            }
            let computed = record.computedHash
            if computed != record.hash {
                return fail(.hashMismatch, record.seq, "hash \(record.hash.hex), computed \(computed.hex)")
            }
            prev = record.hash
        }
        return AuditVerification(recordCount: records.count, lastHash: prev, failure: nil)
    }
}
