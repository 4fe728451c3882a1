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
    /// - Throws: ``AuditError/Code/io`` only when a file cannot be read.
    public static func verify(directory: String) throws -> AuditVerification {
        let lines = try AuditReader.lines(directory: directory)
        let parsed = lines.map { line in
            Result { () throws(AuditRecord.ParseFailure) -> AuditRecord in try AuditRecord.parse(line: line.text) }
        }
        var expected = 1
        var prev = AuditDigest.zero
        func fail(_ kind: AuditVerification.Kind, _ seq: Int, _ line: AuditReader.Line, _ detail: String)
            -> AuditVerification
        {
            AuditVerification(
                recordCount: expected - 1, lastHash: prev,
                failure: .init(kind: kind, seq: seq, file: line.file, line: line.number, detail: detail))
        }
        for (index, line) in lines.enumerated() {
            guard line.terminated else {
                return fail(.tornLine, expected, line, "the last line has no trailing newline")
            }
            let record: AuditRecord
            switch parsed[index] {
            case .success(let parsedRecord): record = parsedRecord
            case .failure(let error):
                switch error {
                case .invalidJSON: return fail(.invalidJSON, expected, line, "not a JSON object")
                case .invalidRecord(let why): return fail(.invalidRecord, expected, line, why)
                }
            }
            if record.seq != expected {
                let later = parsed[(index + 1)...].contains { (try? $0.get())?.seq == expected }
                let kind: AuditVerification.Kind = record.seq < expected || later ? .seqOrder : .seqGap
                return fail(kind, expected, line, "expected seq \(expected), found \(record.seq)")
            }
            if record.prev != prev {
                return fail(.prevMismatch, record.seq, line, "prev \(record.prev.hex) is not the previous hash \(prev.hex)")
            }
            let computed = record.computedHash
            if computed != record.hash {
                return fail(.hashMismatch, record.seq, line, "hash \(record.hash.hex), computed \(computed.hex)")
            }
            if line.text != record.canonicalJSON(includingHash: true) {
                return fail(.invalidRecord, record.seq, line, "the line is not in canonical form")
            }
            prev = record.hash
            expected += 1
        }
        return AuditVerification(recordCount: expected - 1, lastHash: prev, failure: nil)
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
