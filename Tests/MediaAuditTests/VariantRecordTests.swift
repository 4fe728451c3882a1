import MediaAudit
import MediaCrypto
import Testing

/// The variant fields `derivedFrom` and `transform`: validation, canonical JSON (only when present, so
/// older records keep their bytes and hashes), parsing and writing.
@Suite struct VariantRecordTests {
    // Computed independently with Python: json.dumps(rec, sort_keys=True, separators=(",", ":")) and
    // hashlib.sha256, for the first record of CanonicalJSONTests plus the variant fields (key sha256("v1"),
    // derivedFrom sha256("k1"), bytes 40).
    static let variantCanonical = #"{"bytes":40,"count":null,"derivedFrom":"6ab9f1eb8f7d3388f4f9d586f66e99fd54080df2c446f0e58668b09c08a16dd0","event":"store","key":"3bfc269594ef649228e9a74bab00f042efc91d5acc6fbee31a382e80d42388fe","partition":null,"prev":"0000000000000000000000000000000000000000000000000000000000000000","reason":"tier-storage","route":"catalog","seq":1,"storage":"disk","tier":"public","time":"2026-11-29T11:07:15.123Z","transform":"w=144,fit=inside,fmt=jpeg,q=80","ttl":60,"url":"https://img.example/catalog/a.jpg"}"#
    static let variantHash = "8afd882278b7a960f02b8fd9225220383e085b5dc7c54cffab5af65d1c8e021b"
    static let variantLine = #"{"bytes":40,"count":null,"derivedFrom":"6ab9f1eb8f7d3388f4f9d586f66e99fd54080df2c446f0e58668b09c08a16dd0","event":"store","hash":"8afd882278b7a960f02b8fd9225220383e085b5dc7c54cffab5af65d1c8e021b","key":"3bfc269594ef649228e9a74bab00f042efc91d5acc6fbee31a382e80d42388fe","partition":null,"prev":"0000000000000000000000000000000000000000000000000000000000000000","reason":"tier-storage","route":"catalog","seq":1,"storage":"disk","tier":"public","time":"2026-11-29T11:07:15.123Z","transform":"w=144,fit=inside,fmt=jpeg,q=80","ttl":60,"url":"https://img.example/catalog/a.jpg"}"#

    static func variantEntry() throws -> AuditEntry {
        var entry = try CanonicalJSONTests.firstEntry()
        entry.key = digest("v1")
        entry.bytes = 40
        entry.derivedFrom = digest("k1")
        entry.transform = try AuditTransform("w=144,fit=inside,fmt=jpeg,q=80")
        return entry
    }

    static func record(_ entry: AuditEntry) -> AuditRecord {
        AuditRecord(seq: 1, time: AuditTime(millisecondsSinceEpoch: TestClock.start), entry: entry, prev: .zero)
    }

    @Test func transformAcceptsOnlyNormalisedParameters() throws {
        for good in ["w=144,fit=inside,fmt=jpeg,q=80", "w=288,h=288,fit=cover,fmt=webp,q=80", "q",
                     String(repeating: "a", count: 128)] {
            #expect(try AuditTransform(good).rawValue == good)
        }
        for bad in ["", "w=144&q=80", "?w=144", "W=144", "w=144, q=80", "w=144;q=80", "fmt=image/jpeg",
                    "sig=a%2Fb", "token:abc", "w=144-1", "fmt=caf\u{E9}", String(repeating: "a", count: 129)] {
            #expect(throws: AuditError(.invalidTransform, "expected [a-z0-9=,]{1,128}, got \(bad.utf8.count) bytes")) {
                try AuditTransform(bad)
            }
        }
        #expect(AuditError.Code.invalidTransform.rawValue == "invalid-transform")
        #expect(AuditError.Code.invalidDerivation.rawValue == "invalid-derivation")
    }

    @Test func variantFieldsGoTogetherOnStoreAndUpdateOnly() throws {
        let transform = try AuditTransform("w=144,fit=inside,fmt=jpeg,q=80")
        for event in [AuditEvent.store, .update] {
            try AuditEntry(event: event, key: digest("v1"), derivedFrom: digest("k1"), transform: transform).validate()
        }
        for event in AuditEvent.allCases where event != .store && event != .update {
            #expect(throws: AuditError(
                .invalidDerivation,
                "derivedFrom and transform are allowed only on store and update records, got \(event.rawValue)")) {
                try AuditEntry(event: event, key: digest("v1"), derivedFrom: digest("k1"), transform: transform).validate()
            }
        }
        #expect(throws: AuditError(.invalidDerivation, "derivedFrom and transform go together: transform is missing")) {
            try AuditEntry(event: .store, key: digest("v1"), derivedFrom: digest("k1")).validate()
        }
        #expect(throws: AuditError(.invalidDerivation, "derivedFrom and transform go together: derivedFrom is missing")) {
            try AuditEntry(event: .update, key: digest("v1"), transform: transform).validate()
        }
        // Numbers are checked first.
        #expect(throws: AuditError(.invalidNumber, "bytes must be >= 0, got -1")) {
            try AuditEntry(event: .evict, bytes: -1, transform: transform).validate()
        }
        #expect(AuditEntry(event: .store, derivedFrom: digest("k1")).isVariant)
        #expect(!AuditEntry(event: .store).isVariant)
    }

    @Test func canonicalJSONMatchesPythonAndOldRecordsKeepTheirHash() throws {
        let variant = Self.record(try Self.variantEntry())
        #expect(variant.canonicalJSON(includingHash: false) == Self.variantCanonical)
        #expect(variant.hash.hex == Self.variantHash)
        #expect(variant.line == Self.variantLine + "\n")
        #expect(variant.canonicalBytes(includingHash: true) == Array(Self.variantLine.utf8))
        // Without the fields (nil given explicitly or by default): the 15-field bytes and hash.
        var plain = try CanonicalJSONTests.firstEntry()
        plain.derivedFrom = nil
        plain.transform = nil
        let old = Self.record(plain)
        #expect(old.canonicalJSON(includingHash: false) == CanonicalJSONTests.firstCanonical)
        #expect(old.hash.hex == CanonicalJSONTests.firstHash)
        #expect(old.line == CanonicalJSONTests.firstLine + "\n")
        #expect(!old.line.contains("derivedFrom") && !old.line.contains("transform"))
    }

    @Test func fieldOrderIsByteWiseSorted() {
        #expect(AuditRecord.allFieldNames == [
            "bodyDigest", "bytes", "count", "derivedFrom", "event", "hash", "key", "keyId", "partition", "prev", "reason", "route",
            "seq", "since", "status", "storage", "tag", "tier", "time", "transform", "ttl", "url",
        ])
        #expect(AuditRecord.allFieldNames
            == (AuditRecord.fieldNames + AuditRecord.variantFieldNames + AuditRecord.bodyFieldNames + AuditRecord.gapFieldNames
                + AuditRecord.statusFieldNames + AuditRecord.tagFieldNames + AuditRecord.keyIdFieldNames)
            .sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) })
        #expect(AuditRecord.variantFieldNames == ["derivedFrom", "transform"])
        #expect(AuditRecord.fieldNames.count == 15)
    }

    @Test func variantLineRoundTripsThroughTheParser() throws {
        let record = try AuditRecord.parse(line: Self.variantLine)
        #expect(record.derivedFrom == digest("k1"))
        #expect(record.transform?.rawValue == "w=144,fit=inside,fmt=jpeg,q=80")
        #expect(record.entry == (try Self.variantEntry()))
        #expect(record.computedHash.hex == Self.variantHash)
        #expect(record.line == Self.variantLine + "\n")
        let old = try AuditRecord.parse(line: CanonicalJSONTests.firstLine)
        #expect(old.derivedFrom == nil && old.transform == nil)
    }

    @Test func parserRefusesMalformedVariantFields() {
        let line = Self.variantLine
        let derived = #""derivedFrom":"\#(digest("k1").hex)","#
        let transform = #","transform":"w=144,fit=inside,fmt=jpeg,q=80""#
        let cases: [(String, AuditRecord.ParseFailure)] = [
            (line.replacingOccurrences(of: derived, with: #""derivedFrom":null,"#),
             .invalidRecord("derivedFrom is not a string")),
            (line.replacingOccurrences(of: derived, with: #""derivedFrom":"\#(digest("k1").hex.uppercased())","#),
             .invalidRecord("derivedFrom is invalid")),
            (line.replacingOccurrences(of: derived, with: #""derivedFrom":"https://img.example/catalog/a.jpg","#),
             .invalidRecord("derivedFrom is invalid")),
            (line.replacingOccurrences(of: transform, with: #","transform":"w=144&token=secret""#),
             .invalidRecord("transform is invalid")),
            (line.replacingOccurrences(of: transform, with: #","transform":"""#),
             .invalidRecord("transform is invalid")),
            (line.replacingOccurrences(of: transform, with: #","transform":144"#),
             .invalidRecord("transform is not a string")),
            (line.replacingOccurrences(of: transform, with: #","transform":null"#),
             .invalidRecord("transform is not a string")),
            (line.replacingOccurrences(of: transform, with: ""),
             .invalidRecord("derivedFrom and transform go together: transform is missing")),
            (line.replacingOccurrences(of: derived, with: ""),
             .invalidRecord("derivedFrom and transform go together: derivedFrom is missing")),
            (line.replacingOccurrences(of: #""event":"store""#, with: #""event":"evict""#),
             .invalidRecord("derivedFrom and transform are allowed only on store and update records, got evict")),
            (line.replacingOccurrences(of: #""event":"store""#, with: #""event":"skip""#),
             .invalidRecord("derivedFrom and transform are allowed only on store and update records, got skip")),
            (line.replacingOccurrences(of: transform, with: #",\#(transform.dropFirst()),"source":"x""#),
             .invalidRecord("unknown field source")),
        ]
        for (text, failure) in cases {
            #expect(throws: failure) { try AuditRecord.parse(line: text) }
        }
    }

    @Test func theWriterRefusesAMisplacedVariantFieldAndWritesNothing() throws {
        let dir = TempDirectory()
        defer { dir.cleanup() }
        let log = try AuditLog(stateDirectory: dir.path, clock: TestClock().clock)
        let misplaced = AuditEntry(
            event: .purge, key: digest("v1"), derivedFrom: digest("k1"), transform: try AuditTransform("w=144"))
        #expect(throws: AuditError(
            .invalidDerivation, "derivedFrom and transform are allowed only on store and update records, got purge")) {
            try log.append(contentsOf: [storeEntry("k1"), misplaced])
        }
        let written = try log.append(try Self.variantEntry())
        try log.close()
        #expect(written.seq == 1)
        #expect(dir.lines() == [written.canonicalJSON(includingHash: true)])
        #expect(try AuditVerifier.verify(directory: dir.audit).failure == nil)
    }

    @Test func aVariantLogVerifiesAndANullVariantFieldIsNotCanonical() throws {
        let dir = TempDirectory()
        defer { dir.cleanup() }
        let log = try AuditLog(stateDirectory: dir.path, clock: TestClock().clock)
        try log.append(contentsOf: [storeEntry("k1"), try Self.variantEntry(), storeEntry("k2")])
        try log.close()
        let verification = try AuditVerifier.verify(directory: dir.audit)
        #expect(verification.failure == nil)
        #expect(verification.recordCount == 3)
        // A `"derivedFrom":null` added to a plain record (hash recomputed over it, as Python would) is
        // still refused: absent variant fields are omitted, never null.
        var lines = dir.lines()
        lines[2] = lines[2].replacingOccurrences(of: #""count":null,"#, with: #""count":null,"derivedFrom":null,"#)
        dir.writeLines(lines)
        let broken = try AuditVerifier.verify(directory: dir.audit)
        #expect(broken.failure == AuditVerification.Failure(
            kind: .invalidRecord, seq: 3, file: "audit.jsonl", line: 3, detail: "derivedFrom is not a string"))
    }
}
