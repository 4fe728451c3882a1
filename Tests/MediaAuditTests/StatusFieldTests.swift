import MediaAudit
import Testing

/// The `status` field of a negative entry's `store` (docs/audit-format.md, "Negative entries"): only there, `400`–`599`,
/// in its sorted place in the canonical JSON, and through the parser.
@Suite struct StatusFieldTests {
    // Computed independently with Python: json.dumps(rec, sort_keys=True, separators=(",", ":")) and hashlib.sha256.
    static let canonical = #"{"bytes":211,"count":null,"event":"store","key":"abababababababababababababababababababababababababababababababab","partition":null,"prev":"0000000000000000000000000000000000000000000000000000000000000000","reason":"error-ttl","route":"catalog","seq":1,"status":404,"storage":"disk","tier":"public","time":"2026-11-29T11:07:27.623Z","ttl":60,"url":null}"#
    static let hash = "8acc116a76010a2b34a25d8833bf1ff5898895eea96842c3d29517ec7dcaeb33"

    static func entry() throws -> AuditEntry {
        AuditEntry(event: .store, tier: try AuditName("public"), route: try AuditName("catalog"), storage: .disk,
                   key: try AuditDigest(hex: String(repeating: "ab", count: 32)), reason: try ReasonCode("error-ttl"),
                   bytes: 211, ttl: 60, status: 404)
    }

    static func record() throws -> AuditRecord {
        AuditRecord(seq: 1, time: AuditTime(millisecondsSinceEpoch: TestClock.start + 12_500), entry: try entry(), prev: .zero)
    }

    @Test func canonicalJSONMatchesPython() throws {
        let record = try Self.record()
        #expect(record.canonicalJSON(includingHash: false) == Self.canonical)
        #expect(record.hash.hex == Self.hash)
    }

    @Test func lineRoundTripsThroughTheParser() throws {
        let line = try Self.record().canonicalJSON(includingHash: true)
        let parsed = try AuditRecord.parse(line: line)
        #expect(parsed.entry == (try Self.entry()))
        #expect(parsed.entry.status == 404)
        #expect(parsed.computedHash.hex == Self.hash)
    }

    @Test func statusIsOnStoreRecordsOnlyAndAnErrorStatus() throws {
        #expect(throws: AuditError(.invalidNumber, "status is allowed only on store records, got skip")) {
            try AuditEntry(event: .skip, status: 404).validate()
        }
        #expect(throws: AuditError(.invalidNumber, "status must be from 400 to 599, got 200")) {
            try AuditEntry(event: .store, status: 200).validate()
        }
        let line = try Self.record().canonicalJSON(includingHash: true)
        #expect(throws: AuditRecord.ParseFailure.invalidRecord("status is allowed only on store records, got update")) {
            try AuditRecord.parse(line: line.replacingOccurrences(of: #""event":"store""#, with: #""event":"update""#))
        }
        #expect(throws: AuditRecord.ParseFailure.invalidRecord("status is not a non-negative integer")) {
            try AuditRecord.parse(line: line.replacingOccurrences(of: #""status":404"#, with: #""status":"404""#))
        }
        #expect(throws: AuditRecord.ParseFailure.invalidRecord("status is not a non-negative integer")) {
            try AuditRecord.parse(line: line.replacingOccurrences(of: #""status":404"#, with: #""status":null"#))
        }
    }
}
