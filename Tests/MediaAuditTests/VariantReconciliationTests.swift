import Foundation
import MediaAudit
import Testing

/// `mediactl audit` and variants: counts per tier and storage class, and the four variant violations
/// (`variant-wider-than-source`, `variant-partition-mismatch`, `variant-tier-mismatch`,
/// `variant-source-unrecorded`) with exact evidence.
@Suite struct VariantReconciliationTests {
    static let allowed = AuditReconcilerTests.allowed

    /// An entry; `from` makes it a variant of `digest(from)` with `transform`.
    static func entry(
        _ event: AuditEvent, _ tier: String?, _ storage: AuditStorage?, _ key: String?, partition: String? = nil,
        from: String? = nil, transform: String = "w=144,fit=inside,fmt=jpeg,q=80", reason: String? = "tier-storage",
        bytes: Int? = nil
    ) -> AuditEntry {
        AuditEntry(
            event: event, tier: tier.map(name), route: tier.map { name($0 == "private" ? "receipts" : "catalog") },
            storage: storage, key: key.map(digest), scope: partition.map { .partitioned(digest($0)) } ?? .none,
            reason: reason.map { try! ReasonCode($0) }, bytes: bytes, derivedFrom: from.map(digest),
            transform: from.map { _ in try! AuditTransform(transform) })
    }

    static func report(_ entries: [AuditEntry], _ inventory: [PersistedObject] = []) throws -> AuditReport {
        let dir = TempDirectory()
        defer { dir.cleanup() }
        let log = try AuditLog(stateDirectory: dir.path, clock: TestClock().clock)
        try log.append(contentsOf: entries)
        try log.close()
        return try AuditReconciler.report(stateDirectory: dir.path, inventory: inventory, allowedStorage: allowed)
    }

    /// The hex of `digest(text)`.
    static func hex(_ text: String) -> String { digest(text).hex }
    /// A partition as evidence shows it: its first 16 hex digits and `…`.
    static func shown(_ partition: String) -> String { String(hex(partition).prefix(16)) + "…" }

    // MARK: clean

    /// Disk source → disk variant (and a narrower memory one), encrypted-disk source → encrypted-disk and
    /// memory variants, and a variant's 304 update.
    static let cleanEntries: [AuditEntry] = [
        entry(.start, nil, nil, nil, reason: nil),  // 1
        entry(.store, "public", .disk, "src-pub", bytes: 1000),  // 2
        entry(.store, "public", .disk, "v-pub", from: "src-pub", bytes: 100),  // 3
        entry(.store, "public", .memory, "v-narrow", from: "src-pub", transform: "w=72,fit=inside,fmt=webp,q=80",
              reason: "hook-narrowed:memory", bytes: 50),  // 4
        entry(.store, "private", .encryptedDisk, "src-priv", partition: "U1", bytes: 2000),  // 5
        entry(.store, "private", .encryptedDisk, "v-priv", partition: "U1", from: "src-priv",
              transform: "w=288,h=288,fit=cover,fmt=webp,q=80", bytes: 200),  // 6
        entry(.store, "private", .memory, "v-mem", partition: "U1", from: "src-priv", bytes: 20),  // 7
        entry(.update, "public", .disk, "v-pub", from: "src-pub", reason: "not-modified"),  // 8
        entry(.stop, nil, nil, nil, reason: nil),  // 9
    ]

    static let cleanInventory = [
        PersistedObject(folder: .disk, key: hex("src-pub"), bytes: 1000, tier: "public"),
        PersistedObject(folder: .disk, key: hex("v-pub"), bytes: 100, tier: "public"),
        PersistedObject(folder: .sealed, key: hex("src-priv"), bytes: 2000, isSealed: true),
        PersistedObject(folder: .sealed, key: hex("v-priv"), bytes: 200, isSealed: true),
    ]

    @Test func cleanVariantsAreCountedPerTierAndStorage() throws {
        let report = try Self.report(Self.cleanEntries, Self.cleanInventory)
        #expect(report.violations == [])
        #expect(report.exitCode == 0)
        let publicDisk = AuditReport.Row.counts(.disk, stored: 2, updated: 1, objects: 2,
                                                  bytes: 1100, variantsStored: 1, variantObjects: 1)
        let publicMemory = AuditReport.Row.counts(.memory, stored: 1, variantsStored: 1)
        let privateSealed = AuditReport.Row.counts(.encryptedDisk, stored: 2, objects: 2, bytes: 2200,
                                                  variantsStored: 1, variantObjects: 1)
        let privateMemory = AuditReport.Row.counts(.memory, stored: 1, variantsStored: 1)
        #expect(report.tiers == [
            .init(tier: "avatar", allowedStorage: .disk, rows: []),
            .init(tier: "no-store", allowedStorage: AuditStorage.none, rows: []),
            .init(tier: "private", allowedStorage: .encryptedDisk, rows: [privateSealed, privateMemory]),
            .init(tier: "public", allowedStorage: .disk, rows: [publicDisk, publicMemory]),
        ])
        let header = "  storage              stored     updated     skipped     evicted     expired      purged invalidated    shredded     objects       bytes\n"
        #expect(report.text == "audit: 9 records, chain intact, last hash \(report.chain.lastHash.hex)\n"
            + "\ntier avatar (allows disk)\n" + header
            + "\ntier no-store (allows none)\n" + header
            + "\ntier private (allows encrypted-disk)\n" + header
            + "  encrypted-disk            2           0           0           0           0           0           0           0           2        2200\n"
            + "    variants encrypted-disk: stored=1 objects=1\n"
            + "  memory                    1           0           0           0           0           0           0           0           0           0\n"
            + "    variants memory: stored=1 objects=0\n"
            + "\ntier public (allows disk)\n" + header
            + "  disk                      2           1           0           0           0           0           0           0           2        1100\n"
            + "    variants disk: stored=1 objects=1\n"
            + "  memory                    1           0           0           0           0           0           0           0           0           0\n"
            + "    variants memory: stored=1 objects=0\n"
            + "\nclean: no violations\n")
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let json = String(decoding: try encoder.encode(report.tiers[3].rows[0]), as: UTF8.self)
        #expect(json == #"{"bytes":1100,"evicted":0,"expired":0,"invalidated":0,"objects":2,"purged":0,"shredded":0,"skipped":{},"storage":"disk","stored":2,"updated":1,"variantObjects":1,"variantsStored":1}"#)
    }

    /// A variant whose source was evicted just before its `store` (while it was being derived) still finds
    /// the source's record; a variant object whose last update is not a variant's is not counted as one.
    @Test func aRecentlyRemovedSourceIsStillFound() throws {
        let report = try Self.report([
            Self.entry(.store, "public", .disk, "src", bytes: 10),
            Self.entry(.evict, "public", .disk, "src", reason: "over-budget"),
            Self.entry(.store, "public", .disk, "v", from: "src", bytes: 5),
            Self.entry(.store, "public", .disk, "w", from: "v", transform: "w=72,fit=inside,fmt=jpeg,q=80", bytes: 2),
            Self.entry(.update, "public", .disk, "w", reason: "not-modified"),
        ], [
            PersistedObject(folder: .disk, key: Self.hex("v"), bytes: 5, tier: "public"),
            PersistedObject(folder: .disk, key: Self.hex("w"), bytes: 2, tier: "public"),
        ])
        #expect(report.violations == [])
        let row = try #require(report.tiers.first { $0.tier == "public" }?.rows.first)
        #expect(row.variantsStored == 2)
        #expect(row.objects == 2)
        #expect(row.variantObjects == 1)  // v; w's last update carries no derivedFrom
    }

    // MARK: violations

    static let plantedEntries: [AuditEntry] = [
        entry(.store, "private", .encryptedDisk, "s1", partition: "U1", bytes: 900),  // 1
        entry(.store, "private", .disk, "v-misfiled", partition: "U1", from: "s1", bytes: 90),  // 2
        entry(.store, "private", .encryptedDisk, "v-other-user", partition: "U2", from: "s1", bytes: 80),  // 3
        entry(.store, "private", .encryptedDisk, "v-shared", from: "s1", bytes: 70),  // 4
        entry(.store, "public", .disk, "s2", bytes: 600),  // 5
        entry(.store, "avatar", .disk, "v-avatar", from: "s2", bytes: 60),  // 6
        entry(.store, "public", .disk, "v-orphan", from: "never-stored", bytes: 50),  // 7
        entry(.store, "public", .disk, "v-all", from: "s1", bytes: 40),  // 8
        entry(.store, "public", .memory, "m1", bytes: 30),  // 9
        entry(.start, nil, nil, nil, reason: nil),  // 10
        entry(.store, "public", .memory, "v-after-restart", from: "m1", bytes: 3),  // 11
        entry(.update, "public", .disk, "v-orphan", from: "never-stored", reason: "not-modified"),  // 12
    ]

    @Test func everyVariantViolationIsNamedWithItsEvidence() throws {
        let report = try Self.report(Self.plantedEntries, [
            PersistedObject(folder: .disk, key: Self.hex("v-misfiled"), bytes: 90, tier: "private",
                            path: "disk/private/v-misfiled"),
        ])
        let (s1, s2) = (Self.hex("s1"), Self.hex("s2"))
        func variant(_ name: String, _ seq: Int) -> String { "variant \(Self.hex(name)) (store record \(seq))" }
        let expected: [AuditViolation] = [
            AuditViolation(kind: .storeWiderThanTier, tier: "private", key: Self.hex("v-misfiled"), seq: 2,
                           evidence: "store record 2 stored in disk; tier private allows at most encrypted-disk"),
            AuditViolation(kind: .variantWiderThanSource, tier: "private", key: Self.hex("v-misfiled"), seq: 2,
                           evidence: "\(variant("v-misfiled", 2)) stored in disk; its source \(s1) was last stored in encrypted-disk (record 1)"),
            AuditViolation(kind: .variantPartitionMismatch, tier: "private", key: Self.hex("v-other-user"), seq: 3,
                           evidence: "\(variant("v-other-user", 3)) has partition \(Self.shown("U2")); its source \(s1) has partition \(Self.shown("U1")) (record 1)"),
            AuditViolation(kind: .variantPartitionMismatch, tier: "private", key: Self.hex("v-shared"), seq: 4,
                           evidence: "\(variant("v-shared", 4)) has partition none; its source \(s1) has partition \(Self.shown("U1")) (record 1)"),
            AuditViolation(kind: .variantTierMismatch, tier: "avatar", key: Self.hex("v-avatar"), seq: 6,
                           evidence: "\(variant("v-avatar", 6)) has tier avatar; its source \(s2) has tier public (record 5)"),
            AuditViolation(kind: .variantSourceUnrecorded, tier: "public", key: Self.hex("v-orphan"), seq: 7,
                           evidence: "\(variant("v-orphan", 7)) derives from \(Self.hex("never-stored")), which has no earlier store or update record"),
            AuditViolation(kind: .variantWiderThanSource, tier: "public", key: Self.hex("v-all"), seq: 8,
                           evidence: "\(variant("v-all", 8)) stored in disk; its source \(s1) was last stored in encrypted-disk (record 1)"),
            AuditViolation(kind: .variantPartitionMismatch, tier: "public", key: Self.hex("v-all"), seq: 8,
                           evidence: "\(variant("v-all", 8)) has partition none; its source \(s1) has partition \(Self.shown("U1")) (record 1)"),
            AuditViolation(kind: .variantTierMismatch, tier: "public", key: Self.hex("v-all"), seq: 8,
                           evidence: "\(variant("v-all", 8)) has tier public; its source \(s1) has tier private (record 1)"),
            // m1 was a memory object of the process that the start at seq 10 replaced.
            AuditViolation(kind: .variantSourceUnrecorded, tier: "public", key: Self.hex("v-after-restart"), seq: 11,
                           evidence: "\(variant("v-after-restart", 11)) derives from \(Self.hex("m1")), which has no earlier store or update record"),
            AuditViolation(kind: .diskNotAllowed, tier: "private", key: Self.hex("v-misfiled"), folder: .disk,
                           evidence: "disk/private/v-misfiled (90 bytes) has tier private, which allows at most encrypted-disk"),
        ]
        #expect(report.violations == expected)
        #expect(report.exitCode == 1)
        let lines = expected.map { (violation: AuditViolation) -> String in
            let folder = violation.folder.map { " folder=\($0.rawValue)" } ?? ""
            let seq = violation.seq.map { " seq=\($0)" } ?? ""
            return "  \(violation.kind) tier=\(violation.tier!)\(folder) key=\(violation.key!)\(seq): \(violation.evidence)\n"
        }
        #expect(report.text.hasSuffix("\nviolations: 11\n" + lines.joined()))
        // The misfiled variant on disk is counted as a variant object of private's disk row.
        let privateDisk = try #require(report.tiers.first { $0.tier == "private" }?.rows.first { $0.storage == .disk })
        #expect(privateDisk.variantsStored == 1)
        #expect(privateDisk.variantObjects == 1)
        #expect(privateDisk.objects == 1)
    }

    @Test func eachViolationAloneExitsOne() throws {
        let source = Self.entry(.store, "private", .encryptedDisk, "s", partition: "U1")
        let cases: [(AuditEntry, [AuditViolation.Kind])] = [
            (Self.entry(.store, "private", .disk, "v", partition: "U1", from: "s"), [.storeWiderThanTier, .variantWiderThanSource]),
            (Self.entry(.store, "private", .encryptedDisk, "v", partition: "U2", from: "s"), [.variantPartitionMismatch]),
            (Self.entry(.store, "public", .memory, "v", partition: "U1", from: "s"), [.variantTierMismatch]),
            (Self.entry(.store, "private", .encryptedDisk, "v", partition: "U1", from: "t"), [.variantSourceUnrecorded]),
            (Self.entry(.store, "private", .memory, "v", partition: "U1", from: "s"), []),
        ]
        for (variant, kinds) in cases {
            let report = try Self.report([source, variant])
            #expect(report.violations.map(\.kind) == kinds)
            #expect(report.exitCode == (kinds.isEmpty ? 0 : 1))
        }
        #expect(AuditViolation.Kind.variantWiderThanSource.rawValue == "variant-wider-than-source")
        #expect(AuditViolation.Kind.variantPartitionMismatch.rawValue == "variant-partition-mismatch")
        #expect(AuditViolation.Kind.variantTierMismatch.rawValue == "variant-tier-mismatch")
        #expect(AuditViolation.Kind.variantSourceUnrecorded.rawValue == "variant-source-unrecorded")
    }

    /// The source's most recent `store`/`update` before the variant is the one judged: a later narrowing
    /// of the source does not make an earlier variant wrong, and an update that narrowed it does make a
    /// later wide variant wrong.
    @Test func theSourcesMostRecentRecordBeforeTheVariantIsJudged() throws {
        let report = try Self.report([
            Self.entry(.store, "public", .disk, "s"),  // 1
            Self.entry(.store, "public", .disk, "v1", from: "s"),  // 2
            Self.entry(.update, "public", .memory, "s", reason: "hook-narrowed:memory"),  // 3
            Self.entry(.store, "public", .disk, "v2", from: "s"),  // 4
        ])
        #expect(report.violations == [
            AuditViolation(
                kind: .variantWiderThanSource, tier: "public", key: Self.hex("v2"), seq: 4,
                evidence: "variant \(Self.hex("v2")) (store record 4) stored in disk; its source \(Self.hex("s")) was last stored in memory (record 3)"),
        ])
    }
}
