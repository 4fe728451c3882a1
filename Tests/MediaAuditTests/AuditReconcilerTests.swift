import Foundation
import MediaAudit
import Testing

@Suite struct AuditReconcilerTests {
    static let allowed: [String: AuditStorage] = [
        "public": .disk, "avatar": .disk, "private": .encryptedDisk, "no-store": .none,
    ]

    static func entry(
        _ event: AuditEvent, _ tier: String?, _ route: String?, _ storage: AuditStorage?, _ key: String?,
        partition: String? = nil, reason: String? = nil, bytes: Int? = nil, count: Int? = nil
    ) -> AuditEntry {
        AuditEntry(
            event: event, tier: tier.map(name), route: route.map(name), storage: storage, key: key.map(digest),
            scope: partition.map { .partitioned(digest($0)) } ?? .none, reason: reason.map { try! ReasonCode($0) },
            bytes: bytes, count: count)
    }

    /// Writes `entries` to a fresh log and builds the report for `inventory`.
    static func report(_ entries: [AuditEntry], _ inventory: [PersistedObject], tamper: ((inout [String]) -> Void)? = nil)
        throws -> AuditReport
    {
        let dir = TempDirectory()
        defer { dir.cleanup() }
        let log = try AuditLog(stateDirectory: dir.path, clock: TestClock().clock)
        try log.append(contentsOf: entries)
        try log.close()
        if let tamper {
            var lines = dir.lines()
            tamper(&lines)
            dir.writeLines(lines)
        }
        return try AuditReconciler.report(stateDirectory: dir.path, inventory: inventory, allowedStorage: allowed)
    }

    static let cleanEntries: [AuditEntry] = [
        entry(.start, nil, nil, nil, nil),
        entry(.store, "public", "catalog", .disk, "k1", reason: "tier-storage", bytes: 100),
        entry(.store, "private", "receipts", .encryptedDisk, "k2", partition: "U1", reason: "tier-storage", bytes: 200),
        entry(.skip, "no-store", "one-time", AuditStorage.none, "k9", reason: "tier-no-store", bytes: 50),
        entry(.skip, "public", "catalog", AuditStorage.none, "k8", reason: "response-no-store"),
        entry(.store, "avatar", "avatars", .disk, "k3", reason: "tier-storage", bytes: 30),
        entry(.evict, "avatar", "avatars", .disk, "k3", bytes: 30),
        entry(.store, "private", "receipts", .memory, "k5", partition: "U1", reason: "hook-narrowed:memory", bytes: 10),
        entry(.expire, "private", "receipts", .memory, "k5", partition: "U1"),
        entry(.store, "private", "receipts", .encryptedDisk, "k4", partition: "U1", reason: "tier-storage", bytes: 40),
        entry(.purge, "private", "receipts", .encryptedDisk, "k4", partition: "U1", reason: "purge-credential"),
        entry(.purge, "private", "receipts", nil, nil, partition: "U1", reason: "purge-credential", count: 1),
        entry(.update, "public", "catalog", .disk, "k1", reason: "not-modified"),
        entry(.stop, nil, nil, nil, nil),
    ]

    static let cleanInventory = [
        PersistedObject(folder: .disk, key: digest("k1").hex, bytes: 100, tier: "public"),
        PersistedObject(folder: .sealed, key: digest("k2").hex, bytes: 200, isSealed: true),
    ]

    @Test func cleanStateHasNoViolationsAndExactCounts() throws {
        let report = try Self.report(Self.cleanEntries, Self.cleanInventory)
        #expect(report.violations == [])
        #expect(report.isClean)
        #expect(report.exitCode == 0)
        #expect(report.recordCount == 14)
        #expect(report.chain.failure == nil)
        let avatarDisk = AuditReport.Row.counts(.disk, stored: 1, evicted: 1)
        let noStore = AuditReport.Row.counts(.none, skipped: ["tier-no-store": 1])
        let privateSealed = AuditReport.Row.counts(.encryptedDisk, stored: 2, purged: 1, objects: 1, bytes: 200)
        let privateMemory = AuditReport.Row.counts(.memory, stored: 1, expired: 1)
        let publicDisk = AuditReport.Row.counts(.disk, stored: 1, updated: 1, objects: 1, bytes: 100)
        let publicNone = AuditReport.Row.counts(.none, skipped: ["response-no-store": 1])
        #expect(report.tiers == [
            .init(tier: "avatar", allowedStorage: .disk, rows: [avatarDisk]),
            .init(tier: "no-store", allowedStorage: AuditStorage.none, rows: [noStore]),
            .init(tier: "private", allowedStorage: .encryptedDisk, rows: [privateSealed, privateMemory]),
            .init(tier: "public", allowedStorage: .disk, rows: [publicDisk, publicNone]),
        ])
    }

    @Test func cleanReportText() throws {
        let report = try Self.report(Self.cleanEntries, Self.cleanInventory)
        let header = "  storage              stored     updated     skipped     evicted     expired      purged invalidated    shredded     objects       bytes\n"
        let expected = "audit: 14 records, chain intact, last hash \(report.chain.lastHash.hex)\n"
            + "\ntier avatar (allows disk)\n" + header
            + "  disk                      1           0           0           1           0           0           0           0           0           0\n"
            + "\ntier no-store (allows none)\n" + header
            + "  none                      0           0           1           0           0           0           0           0           0           0\n"
            + "    skipped none: tier-no-store=1\n"
            + "\ntier private (allows encrypted-disk)\n" + header
            + "  encrypted-disk            2           0           0           0           0           1           0           0           1         200\n"
            + "  memory                    1           0           0           0           1           0           0           0           0           0\n"
            + "\ntier public (allows disk)\n" + header
            + "  disk                      1           1           0           0           0           0           0           0           1         100\n"
            + "  none                      0           0           1           0           0           0           0           0           0           0\n"
            + "    skipped none: response-no-store=1\n"
            + "\nclean: no violations\n"
        #expect(report.text == expected)
    }

    static let plantedEntries: [AuditEntry] = [
        entry(.store, "public", "catalog", .disk, "k1", reason: "tier-storage", bytes: 100),  // 1
        entry(.store, "no-store", "one-time", .memory, "kN", reason: "tier-storage", bytes: 5),  // 2
        entry(.store, "private", "receipts", .disk, "kW", partition: "U1", reason: "tier-storage"),  // 3
        entry(.store, "mystery", "x", .disk, "kM", reason: "tier-storage"),  // 4
        entry(.store, "avatar", "avatars", .disk, "kE", reason: "tier-storage"),  // 5
        entry(.evict, "avatar", "avatars", .disk, "kE"),  // 6
        entry(.store, "private", "receipts", .encryptedDisk, "kP", partition: "U1", reason: "tier-storage"),  // 7
        entry(.purge, "private", "receipts", .encryptedDisk, "kP", partition: "U1", reason: "purge-credential"),  // 8
        entry(.purge, "private", "receipts", nil, nil, partition: "U1", reason: "purge-credential", count: 1),  // 9
        entry(.store, "avatar", "avatars", .memory, "kS", reason: "hook-narrowed:memory"),  // 10
    ]

    static let plantedInventory = [
        PersistedObject(folder: .disk, key: digest("k1").hex, bytes: 100, tier: "public"),
        PersistedObject(folder: .disk, key: digest("kD").hex, bytes: 7, tier: "private"),
        PersistedObject(folder: .sealed, key: digest("kX").hex, bytes: 8, isSealed: false),
        PersistedObject(folder: .disk, key: digest("kE").hex, bytes: 9, tier: "avatar"),
        PersistedObject(folder: .sealed, key: digest("kP").hex, bytes: 10, isSealed: true),
        PersistedObject(folder: .disk, key: digest("kS").hex, bytes: 11, tier: "avatar"),
        PersistedObject(folder: .disk, key: digest("kW").hex, bytes: 12),
    ]

    @Test func everyPlantedViolationIsDetectedWithEvidence() throws {
        let report = try Self.report(Self.plantedEntries, Self.plantedInventory)
        let (kN, kW, kM, kE, kP, kS, kD, kX) = (
            digest("kN").hex, digest("kW").hex, digest("kM").hex, digest("kE").hex, digest("kP").hex,
            digest("kS").hex, digest("kD").hex, digest("kX").hex)
        #expect(report.violations == [
            AuditViolation(kind: .storeInNoStoreTier, tier: "no-store", key: kN, seq: 2,
                           evidence: "store record 2 stored in memory for no-store tier no-store"),
            AuditViolation(kind: .storeWiderThanTier, tier: "private", key: kW, seq: 3,
                           evidence: "store record 3 stored in disk; tier private allows at most encrypted-disk"),
            AuditViolation(kind: .unknownTier, tier: "mystery", key: kM, seq: 4,
                           evidence: "store record 4 names tier mystery, which the policies do not define"),
            // disk/ objects sorted by key: kW 37f8…, kE 6219…, k1 6ab9…, kS 71dc…, kD b6d8…
            AuditViolation(kind: .diskNotAllowed, tier: "private", key: kW, folder: .disk,
                           evidence: "disk/\(kW) (12 bytes) has tier private, which allows at most encrypted-disk"),
            AuditViolation(kind: .removedObjectPresent, tier: "avatar", key: kE, folder: .disk, seq: 6,
                           evidence: "disk/\(kE) (9 bytes) is still present after evict record 6"),
            AuditViolation(kind: .storageMismatch, tier: "avatar", key: kS, folder: .disk, seq: 10,
                           evidence: "disk/\(kS) (11 bytes) is in disk/ but store record 10 says memory"),
            AuditViolation(kind: .diskNotAllowed, tier: "private", key: kD, folder: .disk,
                           evidence: "disk/\(kD) (7 bytes) has tier private, which allows at most encrypted-disk"),
            AuditViolation(kind: .unrecordedObject, tier: "private", key: kD, folder: .disk,
                           evidence: "disk/\(kD) (7 bytes) has no store record"),
            // sealed/ objects: kP 094f…, kX fc7e…
            AuditViolation(kind: .removedObjectPresent, tier: "private", key: kP, folder: .sealed, seq: 8,
                           evidence: "sealed/\(kP) (10 bytes) is still present after purge record 8"),
            AuditViolation(kind: .notSealed, key: kX, folder: .sealed,
                           evidence: "sealed/\(kX) (8 bytes) is not a sealed object"),
            AuditViolation(kind: .unrecordedObject, key: kX, folder: .sealed,
                           evidence: "sealed/\(kX) (8 bytes) has no store record"),
        ])
        #expect(report.exitCode == 1)
        let expectedLines: [String] = [
            "\nviolations: 11\n",
            "  store-in-no-store-tier tier=no-store key=\(kN) seq=2: store record 2 stored in memory for no-store tier no-store\n",
            "  store-wider-than-tier tier=private key=\(kW) seq=3: store record 3 stored in disk; tier private allows at most encrypted-disk\n",
            "  unknown-tier tier=mystery key=\(kM) seq=4: store record 4 names tier mystery, which the policies do not define\n",
            "  disk-not-allowed tier=private folder=disk key=\(kW): disk/\(kW) (12 bytes) has tier private, which allows at most encrypted-disk\n",
            "  removed-object-present tier=avatar folder=disk key=\(kE) seq=6: disk/\(kE) (9 bytes) is still present after evict record 6\n",
            "  storage-mismatch tier=avatar folder=disk key=\(kS) seq=10: disk/\(kS) (11 bytes) is in disk/ but store record 10 says memory\n",
            "  disk-not-allowed tier=private folder=disk key=\(kD): disk/\(kD) (7 bytes) has tier private, which allows at most encrypted-disk\n",
            "  unrecorded-object tier=private folder=disk key=\(kD): disk/\(kD) (7 bytes) has no store record\n",
            "  removed-object-present tier=private folder=sealed key=\(kP) seq=8: sealed/\(kP) (10 bytes) is still present after purge record 8\n",
            "  not-sealed folder=sealed key=\(kX): sealed/\(kX) (8 bytes) is not a sealed object\n",
            "  unrecorded-object folder=sealed key=\(kX): sealed/\(kX) (8 bytes) has no store record\n",
        ]
        #expect(report.text.hasSuffix(expectedLines.joined()))
        #expect(report.tiers.map(\.tier) == ["avatar", "mystery", "no-store", "private", "public", "unknown"])
        #expect(report.tiers.first { $0.tier == "mystery" }?.allowedStorage == nil)
    }

    @Test func brokenChainIsAViolation() throws {
        let report = try Self.report(Self.cleanEntries, Self.cleanInventory) { lines in
            lines[3] = lines[3].replacingOccurrences(of: #""bytes":50"#, with: #""bytes":0"#)
        }
        #expect(report.violations.count == 1)
        let violation = try #require(report.violations.first)
        #expect(violation.kind == .brokenChain)
        #expect(violation.seq == 4)
        #expect(violation.evidence.hasPrefix("hash-mismatch at seq 4 (audit.jsonl line 4): hash "))
        #expect(report.exitCode == 1)
        #expect(report.text.hasPrefix("audit: 14 records, chain broken: hash-mismatch at seq 4 (audit.jsonl line 4)\n"))
    }

    @Test func reportEncodesAsOneJSONDocument() throws {
        let report = try Self.report(Self.plantedEntries, Self.plantedInventory)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let data = try encoder.encode(report)
        let object = try JSONSerialization.jsonObject(with: data) as! [String: Any]
        #expect(object.keys.sorted() == ["chain", "clean", "policies", "recordCount", "tiers", "violations"])
        #expect(object["policies"] as? [Any] != nil)
        #expect(object["clean"] as? Bool == false)
        let chain = object["chain"] as! [String: Any]
        #expect(chain.keys.sorted() == ["checkpointSeq", "failure", "intact", "lastHash", "recordCount"])
        #expect(chain["checkpointSeq"] as? Int == 0)
        #expect(chain["failure"] is NSNull)
        let violations = object["violations"] as! [[String: Any]]
        #expect(violations.count == 11)
        #expect(violations[9]["kind"] as? String == "not-sealed")
        #expect(violations[9]["seq"] is NSNull)
        #expect(violations[9]["tier"] is NSNull)
        #expect(violations[9]["folder"] as? String == "sealed")
        let tiers = object["tiers"] as! [[String: Any]]
        #expect(tiers[1]["allowedStorage"] is NSNull)
        let publicRows = tiers[4]["rows"] as! [[String: Any]]
        #expect(publicRows[0].keys.sorted() == [
            "bytes", "evicted", "expired", "invalidated", "objects", "purged", "shredded", "skipped", "storage",
            "stored", "updated", "variantObjects", "variantsStored",
        ])
        #expect(publicRows[0]["variantsStored"] as? Int == 0)
        #expect(publicRows[0]["variantObjects"] as? Int == 0)
        #expect(publicRows[0]["storage"] as? String == "disk")
        #expect(try JSONDecoder().decode(AuditReport.self, from: data) == report)
    }
}
