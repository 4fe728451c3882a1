import MediaAudit
import MediaCrypto
import Testing

/// The hand-written canonical encoder against the `String`-building one it replaced (kept here as the
/// reference) and against the Python-computed texts of ``CanonicalJSONTests``.
@Suite struct CanonicalBytesTests {
    /// The encoder as it was before the byte writer (string interpolation per field).
    static func reference(_ record: AuditRecord, includingHash: Bool) -> String {
        var out = "{"
        func field(_ name: String, _ value: String?, quoted: Bool) {
            if out.utf8.count > 1 { out += "," }
            out += "\"\(name)\":"
            if let value { out += quoted ? "\"\(value)\"" : value } else { out += "null" }
        }
        field("bytes", record.bytes.map(String.init), quoted: false)
        field("count", record.count.map(String.init), quoted: false)
        if let derivedFrom = record.derivedFrom { field("derivedFrom", derivedFrom.hex, quoted: true) }
        field("event", record.event.rawValue, quoted: true)
        if includingHash { field("hash", record.hash.hex, quoted: true) }
        field("key", record.key?.hex, quoted: true)
        field("partition", record.partition?.hex, quoted: true)
        field("prev", record.prev.hex, quoted: true)
        field("reason", record.reason?.rawValue, quoted: true)
        field("route", record.route?.rawValue, quoted: true)
        field("seq", String(record.seq), quoted: false)
        field("storage", record.storage?.rawValue, quoted: true)
        field("tier", record.tier?.rawValue, quoted: true)
        field("time", record.time.rfc3339, quoted: true)
        if let transform = record.transform { field("transform", transform.rawValue, quoted: true) }
        field("ttl", record.ttl.map(String.init), quoted: false)
        field("url", record.url?.rawValue, quoted: true)
        return out + "}"
    }

    static func entries() throws -> [AuditEntry] {
        [
            try CanonicalJSONTests.firstEntry(),
            try CanonicalJSONTests.secondEntry(),
            AuditEntry(event: .start),
            AuditEntry(event: .stop, reason: try ReasonCode("graceful-stop")),
            AuditEntry(event: .skip, tier: name("t"), route: name("r"), storage: AuditStorage.none, key: digest("x"),
                       bytes: 0, ttl: 0, count: 0),
            AuditEntry(event: .evict, bytes: Int.max, ttl: 1_000_000_007, count: 9),
            try VariantRecordTests.variantEntry(),
            AuditEntry(event: .update, tier: name("private"), storage: .memory, key: digest("v2"),
                       scope: .partitioned(digest("U1")), derivedFrom: digest("k2"),
                       transform: try AuditTransform("w=288,h=288,fit=cover,fmt=webp,q=80")),
        ]
    }

    @Test func bytesEqualTheReferenceEncoder() throws {
        let times: [Int64] = [0, 1, 999, 1000, TestClock.start, 253_402_300_799_999, 951_782_400_000, 4_107_542_400_000]
        for (index, entry) in try Self.entries().enumerated() {
            for time in times {
                for seq in [1, 9, 10, 12345, Int.max] {
                    let record = AuditRecord(seq: seq, time: AuditTime(millisecondsSinceEpoch: time), entry: entry,
                                             prev: index.isMultiple(of: 2) ? .zero : digest("p\(index)"))
                    for includingHash in [false, true] {
                        let expected = Self.reference(record, includingHash: includingHash)
                        #expect(record.canonicalBytes(includingHash: includingHash) == Array(expected.utf8))
                        #expect(record.canonicalJSON(includingHash: includingHash) == expected)
                    }
                    #expect(record.hash == AuditDigest(SHA256.hash(Self.reference(record, includingHash: false))))
                    #expect(record.line == Self.reference(record, includingHash: true) + "\n")
                }
            }
        }
    }

    @Test func bytesMatchPython() throws {
        let record = AuditRecord(
            seq: 1, time: AuditTime(millisecondsSinceEpoch: TestClock.start), entry: try CanonicalJSONTests.firstEntry(),
            prev: .zero)
        #expect(record.canonicalBytes(includingHash: false) == Array(CanonicalJSONTests.firstCanonical.utf8))
        #expect(record.canonicalBytes(includingHash: true) == Array(CanonicalJSONTests.firstLine.utf8))
        #expect(record.hash.hex == CanonicalJSONTests.firstHash)
    }

    @Test func timeBytesEqualTheStringForm() {
        // Year 0, the epoch, leap days, 9999-12-31T23:59:59.999Z, and years outside 0000–9999 (String path).
        let times: [Int64] = [
            -62_167_219_200_000, 0, 1, 59_999, 951_782_400_000, 951_868_799_999, TestClock.start,
            253_402_300_799_999, 253_402_300_800_000, -62_167_219_200_001, -1,
        ]
        for time in times {
            let value = AuditTime(millisecondsSinceEpoch: time)
            #expect(AuditRecord(seq: 1, time: value, entry: AuditEntry(event: .start), prev: .zero)
                .canonicalJSON(includingHash: false).contains("\"time\":\"\(value.rfc3339)\""))
        }
        #expect(AuditTime(millisecondsSinceEpoch: 951_782_400_000).rfc3339 == "2000-02-29T00:00:00.000Z")
        #expect(AuditTime(millisecondsSinceEpoch: 253_402_300_799_999).rfc3339 == "9999-12-31T23:59:59.999Z")
    }
}
