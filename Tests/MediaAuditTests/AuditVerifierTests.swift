import Foundation
import MediaAudit
import Testing

@Suite struct AuditVerifierTests {
    /// Six store records; returns them and the lines as written.
    func sixRecords(_ dir: TempDirectory) throws -> ([AuditRecord], [String]) {
        let records = try writeLog(dir, count: 6)
        return (records, dir.lines())
    }

    @Test func intactLogVerifies() throws {
        let dir = TempDirectory()
        defer { dir.cleanup() }
        let (records, _) = try sixRecords(dir)
        let verification = try AuditVerifier.verify(stateDirectory: dir.path)
        #expect(verification == AuditVerification(recordCount: 6, lastHash: records[5].hash, failure: nil))
        #expect(verification.text == "ok: 6 records, last hash \(records[5].hash.hex)\n")
        #expect(verification.exitCode == 0)
    }

    @Test func missingOrEmptyLogIsIntactWithZeroRecords() throws {
        let dir = TempDirectory()
        defer { dir.cleanup() }
        #expect(try AuditVerifier.verify(stateDirectory: dir.path)
            == AuditVerification(recordCount: 0, lastHash: .zero, failure: nil))
    }

    @Test func editedFieldIsAHashMismatch() throws {
        let dir = TempDirectory()
        defer { dir.cleanup() }
        let (records, original) = try sixRecords(dir)
        var lines = original
        lines[2] = lines[2].replacingOccurrences(of: #""bytes":100"#, with: #""bytes":1"#)
        dir.writeLines(lines)
        let edited = try AuditRecord.parse(line: lines[2])
        #expect(try AuditVerifier.verify(stateDirectory: dir.path) == AuditVerification(
            recordCount: 2, lastHash: records[1].hash,
            failure: .init(kind: .hashMismatch, seq: 3, file: "audit.jsonl", line: 3,
                           detail: "hash \(records[2].hash.hex), computed \(edited.computedHash.hex)")))
    }

    @Test func rehashedEditIsAPrevMismatchOnTheNextRecord() throws {
        let dir = TempDirectory()
        defer { dir.cleanup() }
        let (records, original) = try sixRecords(dir)
        var lines = original
        var entry = records[2].entry
        entry.bytes = 1
        let forged = AuditRecord(seq: 3, time: records[2].time, entry: entry, prev: records[1].hash)
        lines[2] = forged.canonicalJSON(includingHash: true)
        dir.writeLines(lines)
        #expect(try AuditVerifier.verify(stateDirectory: dir.path) == AuditVerification(
            recordCount: 3, lastHash: forged.hash,
            failure: .init(kind: .prevMismatch, seq: 4, file: "audit.jsonl", line: 4,
                           detail: "prev \(records[2].hash.hex) is not the previous hash \(forged.hash.hex)")))
    }

    @Test func deletedLineIsASeqGap() throws {
        let dir = TempDirectory()
        defer { dir.cleanup() }
        let (records, original) = try sixRecords(dir)
        var lines = original
        lines.remove(at: 3)
        dir.writeLines(lines)
        #expect(try AuditVerifier.verify(stateDirectory: dir.path) == AuditVerification(
            recordCount: 3, lastHash: records[2].hash,
            failure: .init(kind: .seqGap, seq: 4, file: "audit.jsonl", line: 4, detail: "expected seq 4, found 5")))
        let verification = try AuditVerifier.verify(stateDirectory: dir.path)
        #expect(verification.text == "failed: seq-gap at seq 4 (audit.jsonl line 4): expected seq 4, found 5; 3 records verified\n")
        #expect(verification.exitCode == 1)
    }

    @Test func swappedLinesAreASeqOrder() throws {
        let dir = TempDirectory()
        defer { dir.cleanup() }
        let (records, original) = try sixRecords(dir)
        var lines = original
        lines.swapAt(1, 2)
        dir.writeLines(lines)
        #expect(try AuditVerifier.verify(stateDirectory: dir.path) == AuditVerification(
            recordCount: 1, lastHash: records[0].hash,
            failure: .init(kind: .seqOrder, seq: 2, file: "audit.jsonl", line: 2, detail: "expected seq 2, found 3")))
    }

    @Test func duplicatedLineIsASeqOrder() throws {
        let dir = TempDirectory()
        defer { dir.cleanup() }
        var lines = try sixRecords(dir).1
        lines.insert(lines[1], at: 2)
        dir.writeLines(lines)
        #expect(try AuditVerifier.verify(stateDirectory: dir.path).failure
            == .init(kind: .seqOrder, seq: 3, file: "audit.jsonl", line: 3, detail: "expected seq 3, found 2"))
    }

    @Test func truncatedMidLineIsATornLine() throws {
        let dir = TempDirectory()
        defer { dir.cleanup() }
        let (records, lines) = try sixRecords(dir)
        let text = lines[0..<5].map { $0 + "\n" }.joined() + String(lines[5].prefix(40))
        dir.write("audit.jsonl", text)
        #expect(try AuditVerifier.verify(stateDirectory: dir.path) == AuditVerification(
            recordCount: 5, lastHash: records[4].hash,
            failure: .init(kind: .tornLine, seq: 6, file: "audit.jsonl", line: 6,
                           detail: "the last line has no trailing newline")))
    }

    @Test func garbageLineIsInvalidJSON() throws {
        let dir = TempDirectory()
        defer { dir.cleanup() }
        let (records, original) = try sixRecords(dir)
        var lines = original
        lines[1] = "Authorization: Bearer nope"
        dir.writeLines(lines)
        #expect(try AuditVerifier.verify(stateDirectory: dir.path) == AuditVerification(
            recordCount: 1, lastHash: records[0].hash,
            failure: .init(kind: .invalidJSON, seq: 2, file: "audit.jsonl", line: 2, detail: "not a JSON object")))
    }

    @Test func addedFieldIsInvalidRecord() throws {
        let dir = TempDirectory()
        defer { dir.cleanup() }
        var lines = try sixRecords(dir).1
        lines[4] = lines[4].replacingOccurrences(of: #""bytes":100,"#, with: #""body":"AAAA","bytes":100,"#)
        dir.writeLines(lines)
        #expect(try AuditVerifier.verify(stateDirectory: dir.path).failure
            == .init(kind: .invalidRecord, seq: 5, file: "audit.jsonl", line: 5, detail: "unknown field body"))
    }

    @Test func pythonStyleReverificationOfTheWrittenLog() throws {
        // What docs/audit-format.md tells others to do: pop "hash", re-serialise sorted and compact, SHA-256.
        let dir = TempDirectory()
        defer { dir.cleanup() }
        let (records, lines) = try sixRecords(dir)
        var prev = AuditDigest.zero.hex
        for (index, line) in lines.enumerated() {
            var object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as! [String: Any]
            let hash = object.removeValue(forKey: "hash") as! String
            let canonical = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
            #expect(String(decoding: canonical, as: UTF8.self) == records[index].canonicalJSON(includingHash: false))
            #expect(object["prev"] as? String == prev)
            #expect(hash == records[index].hash.hex)
            prev = hash
        }
    }

    @Test func nonCanonicalLineIsInvalidRecord() throws {
        let dir = TempDirectory()
        defer { dir.cleanup() }
        var lines = try sixRecords(dir).1
        lines[0] = lines[0].replacingOccurrences(of: #"{"bytes":100,"#, with: #"{"bytes": 100,"#)
        dir.writeLines(lines)
        #expect(try AuditVerifier.verify(stateDirectory: dir.path).failure
            == .init(kind: .invalidRecord, seq: 1, file: "audit.jsonl", line: 1, detail: "the line is not in canonical form"))
    }
}
