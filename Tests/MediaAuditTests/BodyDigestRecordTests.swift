import MediaAudit
import MediaCrypto
import Testing

/// The optional `bodyDigest` field of `store` and `update` records: validation, canonical JSON (only when present,
/// so records without it keep their bytes and hashes), parsing, and logs of earlier versions.
@Suite struct BodyDigestRecordTests {
    // Computed independently with Python: json.dumps(rec, sort_keys=True, separators=(",", ":")) and hashlib.sha256,
    // for the first record of CanonicalJSONTests plus "bodyDigest": sha256("body-1").
    static let canonical = #"{"bodyDigest":"85e08f281bf3d004784e18d04a1a8d0b8fa37ab50d6ea39c3f4b43145375762f","bytes":100,"count":null,"event":"store","key":"6ab9f1eb8f7d3388f4f9d586f66e99fd54080df2c446f0e58668b09c08a16dd0","partition":null,"prev":"0000000000000000000000000000000000000000000000000000000000000000","reason":"tier-storage","route":"catalog","seq":1,"storage":"disk","tier":"public","time":"2026-11-29T11:07:15.123Z","ttl":60,"url":"https://img.example/catalog/a.jpg"}"#
    static let hash = "b2b98f3ac0dc190d65912ecb53a9f9045402ea731cd49e47009e8689a8125e98"
    static let line = #"{"bodyDigest":"85e08f281bf3d004784e18d04a1a8d0b8fa37ab50d6ea39c3f4b43145375762f","bytes":100,"count":null,"event":"store","hash":"b2b98f3ac0dc190d65912ecb53a9f9045402ea731cd49e47009e8689a8125e98","key":"6ab9f1eb8f7d3388f4f9d586f66e99fd54080df2c446f0e58668b09c08a16dd0","partition":null,"prev":"0000000000000000000000000000000000000000000000000000000000000000","reason":"tier-storage","route":"catalog","seq":1,"storage":"disk","tier":"public","time":"2026-11-29T11:07:15.123Z","ttl":60,"url":"https://img.example/catalog/a.jpg"}"#

    static func entry() throws -> AuditEntry {
        var entry = try CanonicalJSONTests.firstEntry()
        entry.bodyDigest = digest("body-1")
        return entry
    }

    static func record(_ entry: AuditEntry) -> AuditRecord {
        AuditRecord(seq: 1, time: AuditTime(millisecondsSinceEpoch: TestClock.start), entry: entry, prev: .zero)
    }

    @Test func canonicalJSONMatchesPython() throws {
        let record = Self.record(try Self.entry())
        #expect(record.canonicalJSON(includingHash: false) == Self.canonical)
        #expect(record.hash.hex == Self.hash)
        #expect(record.line == Self.line + "\n")
        #expect(record.canonicalBytes(includingHash: true) == Array(Self.line.utf8))
        // Without it: the 15-field bytes and hash of CanonicalJSONTests.
        let plain = Self.record(try CanonicalJSONTests.firstEntry())
        #expect(plain.line == CanonicalJSONTests.firstLine + "\n")
        #expect(!plain.line.contains("bodyDigest"))
    }

    @Test func aLineRoundTripsAndAnOldLineParsesWithout() throws {
        let parsed = try AuditRecord.parse(line: Self.line)
        #expect(parsed.bodyDigest == digest("body-1"))
        #expect(parsed.bytes == 100)
        #expect(parsed.computedHash.hex == Self.hash)
        #expect(parsed.line == Self.line + "\n")
        let old = try AuditRecord.parse(line: CanonicalJSONTests.firstLine)
        #expect(old.bodyDigest == nil)
        #expect(old.computedHash.hex == CanonicalJSONTests.firstHash)
    }

    /// With the variant fields too: `bodyDigest` first, `derivedFrom` after `count`, `transform` after `time`.
    @Test func withTheVariantFieldsEachSortsInItsPlace() throws {
        var entry = try VariantRecordTests.variantEntry()
        entry.bodyDigest = digest("body-1")
        let line = Self.record(entry).canonicalJSON(includingHash: true)
        #expect(line.hasPrefix(#"{"bodyDigest":"85e08f281bf3d004784e18d04a1a8d0b8fa37ab50d6ea39c3f4b43145375762f","bytes":40,"count":null,"derivedFrom":"#))
        let parsed = try AuditRecord.parse(line: line)
        #expect(parsed.entry == entry)
        #expect(parsed.computedHash == parsed.hash)
    }

    @Test func onlyOnStoreAndUpdateWithBytes() throws {
        for event in [AuditEvent.store, .update] {
            try AuditEntry(event: event, bytes: 3, bodyDigest: digest("b")).validate()
        }
        for event in AuditEvent.allCases where event != .store && event != .update {
            #expect(throws: AuditError(
                .invalidBodyDigest, "bodyDigest is allowed only on store and update records, got \(event.rawValue)")) {
                try AuditEntry(event: event, bytes: 3, bodyDigest: digest("b")).validate()
            }
        }
        #expect(throws: AuditError(.invalidBodyDigest, "bodyDigest needs bytes")) {
            try AuditEntry(event: .store, bodyDigest: digest("b")).validate()
        }
        #expect(AuditError.Code.invalidBodyDigest.rawValue == "invalid-body-digest")
    }

    @Test func theWriterRefusesAMisplacedBodyDigest() throws {
        let log = InMemoryAuditLog()
        #expect(throws: AuditError(.invalidBodyDigest, "bodyDigest is allowed only on store and update records, got evict")) {
            try log.append(AuditEntry(event: .evict, bytes: 3, bodyDigest: digest("b")))
        }
        #expect(log.records.isEmpty)
    }

    @Test func theParserRefusesMalformedBodyDigests() {
        let cases: [(String, AuditRecord.ParseFailure)] = [
            (Self.line.replacingOccurrences(of: #""bodyDigest":"85e08f281bf3d004784e18d04a1a8d0b8fa37ab50d6ea39c3f4b43145375762f""#,
                                            with: #""bodyDigest":null"#),
             .invalidRecord("bodyDigest is not a string")),
            (Self.line.replacingOccurrences(of: #""bodyDigest":"85e0"#, with: #""bodyDigest":"X5e0"#),
             .invalidRecord("bodyDigest is invalid")),
            (Self.line.replacingOccurrences(of: #""bytes":100"#, with: #""bytes":null"#),
             .invalidRecord("bodyDigest needs bytes")),
            (Self.line.replacingOccurrences(of: #""event":"store""#, with: #""event":"skip""#),
             .invalidRecord("bodyDigest is allowed only on store and update records, got skip")),
        ]
        for (line, failure) in cases {
            #expect(throws: failure) { try AuditRecord.parse(line: line) }
        }
    }
}
