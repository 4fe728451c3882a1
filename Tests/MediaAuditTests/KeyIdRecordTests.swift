import MediaAudit
import Testing

/// `keyId`: the data key of an encrypted-disk object's `store`/`update`, or of a `shred` `partition-key-destroyed`;
/// omitted on every other record, placed after `key` in canonical order, refused elsewhere.
@Suite struct KeyIdRecordTests {
    let time = AuditTime(millisecondsSinceEpoch: 1_795_950_435_123)

    func record(_ entry: AuditEntry) -> AuditRecord {
        AuditRecord(seq: 7, time: time, entry: entry, prev: .zero)
    }

    @Test func itFollowsKeyAndRoundTrips() throws {
        let entry = AuditEntry(event: .store, tier: name("private"), route: name("receipts"), storage: .encryptedDisk,
                               key: digest("k"), scope: .partitioned(digest("p")), reason: .tierStorage, bytes: 10, ttl: 60,
                               keyId: try AuditKeyID("0123456789abcdef"))
        let line = record(entry).canonicalJSON(includingHash: true)
        #expect(line.contains(#""key":"\#(digest("k").hex)","keyId":"0123456789abcdef","partition":"#))
        let parsed = try AuditRecord.parse(line: line)
        #expect(parsed.entry.keyId?.rawValue == "0123456789abcdef")
        #expect(parsed.hash == record(entry).hash)
        // Without it, the line is the one before keyId existed.
        var plain = entry
        plain.keyId = nil
        #expect(!record(plain).canonicalJSON(includingHash: true).contains("keyId"))
    }

    @Test func itIsRefusedOutOfPlaceOrMalformed() throws {
        #expect(throws: AuditError(.invalidName, "a key id is 16 lower-case hex digits, got 3 bytes")) { try AuditKeyID("abc") }
        #expect(throws: AuditError(.invalidName, "a key id is 16 lower-case hex digits, got 16 bytes")) { try AuditKeyID("0123456789ABCDEF") }
        let skip = AuditEntry(event: .skip, reason: .tierNoStore, keyId: try AuditKeyID("0123456789abcdef"))
        #expect(throws: AuditError(.invalidName, "keyId is allowed only on store, update and shred records, got skip")) {
            try skip.validate()
        }
        let line = record(skip).canonicalJSON(includingHash: true)
        #expect(throws: AuditRecord.ParseFailure.invalidRecord("keyId is allowed only on store, update and shred records, got skip")) {
            try AuditRecord.parse(line: line)
        }
        let shred = record(AuditEntry(event: .shred, reason: .partitionKeyDestroyed, keyId: try AuditKeyID("0123456789abcdef")))
        let malformed = shred.canonicalJSON(includingHash: true).replacingOccurrences(of: "0123456789abcdef", with: "0123456789abcdeg")
        #expect(throws: AuditRecord.ParseFailure.invalidRecord("keyId is invalid")) { try AuditRecord.parse(line: malformed) }
    }
}
