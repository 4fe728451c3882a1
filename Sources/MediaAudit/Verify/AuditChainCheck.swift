/// The hash-chain check of ``AuditVerifier``, one line at a time, so that a log of any size is verified
/// while it is streamed (``AuditReader/forEachLine(directory:_:)``) and the same pass can reconcile it.
///
/// Feed every line in chain order to ``check(_:)``, then read ``verification``. The first failure is
/// kept; later lines are still parsed (and their records returned) but no longer checked, except to
/// tell a `seq-order` (the missing `seq` appears later) from a `seq-gap`.
public struct AuditChainCheck: Sendable {
    private var expected = 1
    private var prev = AuditDigest.zero
    private let checkpointSeq: Int
    /// The last segment the checkpoint covers: lines of segments numbered up to it (left by a prune
    /// interrupted before it removed them) are skipped, unchecked.
    private let checkpointSegment: Int
    /// The file of the last line checked, and whether its lines are skipped (decided once per file).
    private var currentFile = ""
    private var skippingFile = false
    private var failure: AuditVerification.Failure?
    /// A `seq` larger than the expected one was found: a gap unless the expected one turns up later.
    private var gapCandidate: AuditVerification.Failure?

    /// Starts at `seq` 1, or after `checkpoint` (`seq` + 1, `prev` = its `hash`).
    public init(after checkpoint: AuditCheckpoint? = nil) {
        checkpointSeq = checkpoint?.seq ?? 0
        checkpointSegment = checkpoint?.segment ?? 0
        if let checkpoint {
            expected = checkpoint.seq + 1
            prev = checkpoint.hash
        }
    }

    /// The verification of the lines checked so far: intact with the count and last hash, or the first
    /// failure (see ``AuditVerifier/verify(directory:)`` for the kinds).
    public var verification: AuditVerification {
        AuditVerification(recordCount: expected - 1 - checkpointSeq, lastHash: prev, failure: failure ?? gapCandidate,
                          checkpointSeq: checkpointSeq)
    }

    /// Whether ``verification`` can no longer change: a failure was found and its kind is final (a
    /// pending `seq-gap` still turns to `seq-order` if the missing `seq` appears later).
    public var isSettled: Bool { failure != nil }

    /// Whether any failure was found, final or not.
    public var hasFailure: Bool { failure != nil || gapCandidate != nil }

    /// Checks the next line and returns its record when the line parses as one (torn or not, chain intact
    /// or not); `nil` otherwise.
    public mutating func check(_ line: AuditReader.Line) -> AuditRecord? {
        let result = Result { () throws(AuditRecord.ParseFailure) -> AuditRecord in
            try AuditRecord.parse(line: line.text)
        }
        let parsed = try? result.get()
        if line.file != currentFile {
            currentFile = line.file
            skippingFile = AuditFiles.segmentIndex(line.file).map { $0 <= checkpointSegment } ?? false
        }
        if skippingFile { return nil }
        if failure != nil { return parsed }
        if let candidate = gapCandidate {
            if parsed?.seq == candidate.seq {
                failure = AuditVerification.Failure(
                    kind: .seqOrder, seq: candidate.seq, file: candidate.file, line: candidate.line,
                    detail: candidate.detail)
                gapCandidate = nil
            }
            return parsed
        }
        func fail(_ kind: AuditVerification.Kind, _ seq: Int, _ detail: String) {
            failure = .init(kind: kind, seq: seq, file: line.file, line: line.number, detail: detail)
        }
        guard line.terminated else {
            fail(.tornLine, expected, "the last line has no trailing newline")
            return parsed
        }
        let record: AuditRecord
        switch result {
        case .success(let parsedRecord): record = parsedRecord
        case .failure(.invalidJSON):
            fail(.invalidJSON, expected, "not a JSON object")
            return nil
        case .failure(.invalidRecord(let why)):
            fail(.invalidRecord, expected, why)
            return nil
        }
        if record.seq != expected {
            let detail = "expected seq \(expected), found \(record.seq)"
            if record.seq < expected {
                fail(.seqOrder, expected, detail)
            } else {
                gapCandidate = .init(kind: .seqGap, seq: expected, file: line.file, line: line.number, detail: detail)
            }
            return record
        }
        if record.prev != prev {
            fail(.prevMismatch, record.seq, "prev \(record.prev.hex) is not the previous hash \(prev.hex)")
            return record
        }
        let computed = record.computedHash
        if computed != record.hash {
            fail(.hashMismatch, record.seq, "hash \(record.hash.hex), computed \(computed.hex)")
            return record
        }
        if line.text != record.canonicalJSON(includingHash: true) {
            fail(.invalidRecord, record.seq, "the line is not in canonical form")
            return record
        }
        prev = record.hash
        expected += 1
        return record
    }
}
