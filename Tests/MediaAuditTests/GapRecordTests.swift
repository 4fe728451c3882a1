import MediaAudit
import Testing

/// The `gap` record (docs/audit-format.md, "Gaps"): `since` only there and always there, its canonical JSON and
/// hash (the 15 keys plus `since`, in its sorted place), the parser, and a chain across it.
@Suite struct GapRecordTests {
    // Computed independently with Python: json.dumps(rec, sort_keys=True, separators=(",", ":")) and
    // hashlib.sha256, for seq 1, time = TestClock.start + 12,500 ms, since = TestClock.start.
    static let gapCanonical = #"{"bytes":null,"count":2,"event":"gap","key":null,"partition":null,"prev":"0000000000000000000000000000000000000000000000000000000000000000","reason":"audit-unavailable:eperm","route":null,"seq":1,"since":"2026-11-29T11:07:15.123Z","storage":null,"tier":null,"time":"2026-11-29T11:07:27.623Z","ttl":null,"url":null}"#
    static let gapHash = "81eea4d9fd4c2f8c0120ba7a7d22897e15440f0318c8b3bdb1f8d1e19674134f"
    static let gapLine = #"{"bytes":null,"count":2,"event":"gap","hash":"81eea4d9fd4c2f8c0120ba7a7d22897e15440f0318c8b3bdb1f8d1e19674134f","key":null,"partition":null,"prev":"0000000000000000000000000000000000000000000000000000000000000000","reason":"audit-unavailable:eperm","route":null,"seq":1,"since":"2026-11-29T11:07:15.123Z","storage":null,"tier":null,"time":"2026-11-29T11:07:27.623Z","ttl":null,"url":null}"#

    static func gapEntry() throws -> AuditEntry {
        AuditEntry(event: .gap, reason: try ReasonCode("audit-unavailable:eperm"), count: 2,
                   since: AuditTime(millisecondsSinceEpoch: TestClock.start))
    }

    @Test func canonicalJSONMatchesPython() throws {
        let record = AuditRecord(seq: 1, time: AuditTime(millisecondsSinceEpoch: TestClock.start + 12_500),
                                 entry: try Self.gapEntry(), prev: .zero)
        #expect(record.canonicalJSON(includingHash: false) == Self.gapCanonical)
        #expect(record.hash.hex == Self.gapHash)
        #expect(record.line == Self.gapLine + "\n")
        #expect(record.canonicalBytes(includingHash: true) == Array(Self.gapLine.utf8))
    }

    @Test func lineRoundTripsThroughTheParser() throws {
        let record = try AuditRecord.parse(line: Self.gapLine)
        #expect(record.entry == (try Self.gapEntry()))
        #expect(record.since?.rfc3339 == "2026-11-29T11:07:15.123Z")
        #expect(record.computedHash.hex == Self.gapHash)
        #expect(record.line == Self.gapLine + "\n")
    }

    @Test func sinceIsOnGapRecordsOnlyAndAlways() throws {
        let since = AuditTime(millisecondsSinceEpoch: TestClock.start)
        #expect(throws: AuditError(.invalidGap, "a gap record needs since")) {
            try AuditEntry(event: .gap, count: 0).validate()
        }
        #expect(throws: AuditError(.invalidGap, "since is allowed only on gap records, got store")) {
            try AuditEntry(event: .store, since: since).validate()
        }
        try AuditEntry(event: .gap, count: 0, since: since).validate()
        let withoutSince = Self.gapLine.replacingOccurrences(of: #""since":"2026-11-29T11:07:15.123Z","#, with: "")
        #expect(throws: AuditRecord.ParseFailure.invalidRecord("a gap record needs since")) {
            try AuditRecord.parse(line: withoutSince)
        }
        let onStop = Self.gapLine.replacingOccurrences(of: #""event":"gap""#, with: #""event":"stop""#)
        #expect(throws: AuditRecord.ParseFailure.invalidRecord("since is allowed only on gap records, got stop")) {
            try AuditRecord.parse(line: onStop)
        }
        let malformed = Self.gapLine.replacingOccurrences(of: "2026-11-29T11:07:15.123Z", with: "2026-11-29T11:07:15Z")
        #expect(throws: AuditRecord.ParseFailure.invalidRecord("since is invalid")) { try AuditRecord.parse(line: malformed) }
        let null = Self.gapLine.replacingOccurrences(of: #""2026-11-29T11:07:15.123Z""#, with: "null")
        #expect(throws: AuditRecord.ParseFailure.invalidRecord("since is not a string")) { try AuditRecord.parse(line: null) }
    }

    @Test func aGapIsAStorageEventOfNoObject() {
        #expect(!AuditEvent.gap.removesObject)
        #expect(!AuditEvent.gap.isStorageDecision)
        #expect(AuditEvent.allCases.filter(\.isStorageDecision) == [.store, .skip, .update])
    }

    /// The writer refuses a gap record without `since` before writing anything; one with it chains like any other
    /// record, and the verifier and reconciliation accept it.
    @Test func theChainAndTheReportAcceptAGap() throws {
        let dir = TempDirectory()
        defer { dir.cleanup() }
        let clock = TestClock()
        let log = try AuditLog(stateDirectory: dir.path, clock: clock.clock)
        let first = try log.append(storeEntry("k1"))
        #expect(throws: AuditError(.invalidGap, "a gap record needs since")) {
            try log.append(AuditEntry(event: .gap, count: 1))
        }
        clock.advance(milliseconds: 12_500)
        let gap = try log.append(AuditEntry(event: .gap, reason: try ReasonCode("audit-unavailable:eperm"), count: 1,
                                            since: AuditTime(millisecondsSinceEpoch: TestClock.start)))
        let third = try log.append(storeEntry("k2"))
        try log.close()
        #expect(gap.seq == 2)
        #expect(gap.prev == first.hash)
        #expect(third.prev == gap.hash)
        #expect(try AuditVerifier.verify(stateDirectory: dir.path)
            == AuditVerification(recordCount: 3, lastHash: third.hash, failure: nil))
        let report = try AuditReconciler.report(stateDirectory: dir.path, inventory: [], allowedStorage: ["public": .disk])
        #expect(report.violations.isEmpty)
        #expect(report.recordCount == 3)
        #expect(report.tiers.map(\.tier) == ["public"])
        #expect(report.tiers.first?.rows.map(\.stored) == [2])
    }
}
