import MediaAudit
import MediaCrypto
import Testing

@Suite struct CanonicalJSONTests {
    // Expected texts and hashes were computed independently with Python:
    // json.dumps(rec, sort_keys=True, separators=(",", ":")) and hashlib.sha256.
    static let firstCanonical = #"{"bytes":100,"count":null,"event":"store","key":"6ab9f1eb8f7d3388f4f9d586f66e99fd54080df2c446f0e58668b09c08a16dd0","partition":null,"prev":"0000000000000000000000000000000000000000000000000000000000000000","reason":"tier-storage","route":"catalog","seq":1,"storage":"disk","tier":"public","time":"2026-11-29T11:07:15.123Z","ttl":60,"url":"https://img.example/catalog/a.jpg"}"#
    static let firstHash = "7e56e54d4564fc865f53ce14d77f49de44ee610c8d630fbe99f2d12197740fff"
    static let firstLine = #"{"bytes":100,"count":null,"event":"store","hash":"7e56e54d4564fc865f53ce14d77f49de44ee610c8d630fbe99f2d12197740fff","key":"6ab9f1eb8f7d3388f4f9d586f66e99fd54080df2c446f0e58668b09c08a16dd0","partition":null,"prev":"0000000000000000000000000000000000000000000000000000000000000000","reason":"tier-storage","route":"catalog","seq":1,"storage":"disk","tier":"public","time":"2026-11-29T11:07:15.123Z","ttl":60,"url":"https://img.example/catalog/a.jpg"}"#
    static let secondHash = "83fb2c3412dcc6ba5443fcc6e18f57b1d15c7ceb06b99f962b0f021875892636"

    static func firstEntry() throws -> AuditEntry {
        AuditEntry(
            event: .store, tier: name("public"), route: name("catalog"), storage: .disk, key: digest("k1"),
            scope: .shared(url: try AuditURL("https://img.example/catalog/a.jpg?v=2")), reason: .tierStorage,
            bytes: 100, ttl: 60)
    }

    static func secondEntry() throws -> AuditEntry {
        AuditEntry(
            event: .purge, tier: name("private"), route: name("receipts"), storage: .encryptedDisk,
            scope: .partitioned(digest("U1")), reason: try ReasonCode("purge-credential"), count: 3)
    }

    @Test func canonicalJSONMatchesPython() throws {
        let record = AuditRecord(
            seq: 1, time: AuditTime(millisecondsSinceEpoch: TestClock.start), entry: try Self.firstEntry(),
            prev: .zero)
        #expect(record.canonicalJSON(includingHash: false) == Self.firstCanonical)
        #expect(record.hash.hex == Self.firstHash)
        #expect(record.line == Self.firstLine + "\n")
        let second = AuditRecord(
            seq: 2, time: AuditTime(millisecondsSinceEpoch: TestClock.start + 1), entry: try Self.secondEntry(),
            prev: record.hash)
        #expect(second.hash.hex == Self.secondHash)
    }

    @Test func lineRoundTripsThroughTheParser() throws {
        let record = try AuditRecord.parse(line: Self.firstLine)
        #expect(record.seq == 1)
        #expect(record.event == .store)
        #expect(record.url?.rawValue == "https://img.example/catalog/a.jpg")
        #expect(record.hash.hex == Self.firstHash)
        #expect(record.computedHash.hex == Self.firstHash)
        #expect(record.line == Self.firstLine + "\n")
    }

    @Test func parserRefusesMalformedRecords() {
        let cases: [(String, AuditRecord.ParseFailure)] = [
            ("not json", .invalidJSON),
            ("[1,2]", .invalidJSON),
            (Self.firstLine.replacingOccurrences(of: #""ttl":60,"#, with: ""), .invalidRecord("missing field ttl")),
            (Self.firstLine.replacingOccurrences(of: #""ttl":60"#, with: #""ttl":60,"body":"abc""#),
             .invalidRecord("unknown field body")),
            (Self.firstLine.replacingOccurrences(of: #""ttl":60"#, with: #""ttl":-1"#),
             .invalidRecord("ttl is not a non-negative integer or null")),
            (Self.firstLine.replacingOccurrences(of: #""ttl":60"#, with: #""ttl":1.5"#),
             .invalidRecord("ttl is not a non-negative integer or null")),
            (Self.firstLine.replacingOccurrences(of: #""event":"store""#, with: #""event":"copy""#),
             .invalidRecord("event is invalid")),
            (Self.firstLine.replacingOccurrences(of: #""reason":"tier-storage""#, with: #""reason":"Bearer x""#),
             .invalidRecord("reason is invalid")),
            (Self.firstLine.replacingOccurrences(of: #""partition":null"#, with: #""partition":"\#(digest("U1").hex)""#),
             .invalidRecord("url is present on a partitioned record")),
            (Self.firstLine.replacingOccurrences(of: #""seq":1"#, with: #""seq":0"#),
             .invalidRecord("seq is not an integer >= 1")),
            (Self.firstLine.replacingOccurrences(of: #""time":"2026-11-29T11:07:15.123Z""#, with: #""time":"yesterday""#),
             .invalidRecord("time is invalid")),
        ]
        for (line, failure) in cases {
            #expect(throws: failure) { try AuditRecord.parse(line: line) }
        }
    }
}
