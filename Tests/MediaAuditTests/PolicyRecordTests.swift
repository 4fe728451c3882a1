import Foundation
import MediaAudit
import Testing

/// `policy` records (docs/audit-format.md, "Policy records"): written, verified, and used by the reconciliation to
/// judge each `store` by the policy in force when it was written.
@Suite struct PolicyRecordTests {
    static let setA = digest("policy set A")
    static let setB = digest("policy set B")

    /// A `policy` batch: the summary, then one record per tier (storage, maxTTL).
    static func batch(_ set: AuditDigest, reason: String, _ tiers: [(String, AuditStorage, Int)]) -> [AuditEntry] {
        [AuditEntry(event: .policy, key: set, reason: try! ReasonCode(reason), count: tiers.count)]
            + tiers.map { tier, storage, maxTTL in
                AuditEntry(event: .policy, tier: name(tier), storage: storage, key: set, reason: try! ReasonCode("policy-tier"),
                           ttl: maxTTL)
            }
    }

    static func store(_ tier: String, _ storage: AuditStorage, _ key: String, ttl: Int) -> AuditEntry {
        AuditEntry(event: .store, tier: name(tier), route: name("r"), storage: storage, key: digest(key),
                   reason: .tierStorage, bytes: 10, ttl: ttl)
    }

    static func records(_ entries: [AuditEntry]) throws -> [AuditRecord] {
        let dir = TempDirectory()
        defer { dir.cleanup() }
        let log = try AuditLog(stateDirectory: dir.path, clock: TestClock().clock)
        try log.append(contentsOf: entries)
        try log.close()
        #expect(try AuditVerifier.verify(directory: dir.path + "/audit").failure == nil)
        return try AuditReader.records(directory: dir.path + "/audit")
    }

    @Test func aPolicyRecordIsCanonicalAndParsesBack() throws {
        let records = try Self.records([AuditEntry(event: .start)] + Self.batch(Self.setA, reason: "policy-loaded", [("public", .disk, 600)]))
        #expect(records.map(\.event) == [.start, .policy, .policy])
        let tier = records[2]
        #expect(tier.canonicalJSON(includingHash: false)
            == "{\"bytes\":null,\"count\":null,\"event\":\"policy\",\"key\":\"\(Self.setA.hex)\",\"partition\":null,\"prev\":\"\(records[1].hash.hex)\","
            + "\"reason\":\"policy-tier\",\"route\":null,\"seq\":3,\"storage\":\"disk\",\"tier\":\"public\",\"time\":\"\(tier.time.rfc3339)\",\"ttl\":600,\"url\":null}")
        #expect(try AuditRecord.parse(line: tier.canonicalJSON(includingHash: true)) == tier)
        #expect(!AuditEvent.policy.removesObject)
    }

    /// Stores are judged by the set in force when written, not by the policies given (which forbid disk for
    /// public here): a store the set in force allowed is clean even after a later set narrowed the tier.
    @Test func storesAreJudgedByThePolicyInForceWhenWritten() throws {
        let entries: [AuditEntry] = [AuditEntry(event: .start)]
            + Self.batch(Self.setA, reason: "policy-loaded", [("public", .disk, 600), ("private", .memory, 60)])  // 2-4
            + [Self.store("public", .disk, "k1", ttl: 600),  // 5: allowed
               Self.store("public", .disk, "k2", ttl: 601),  // 6: over maxTTL
               Self.store("private", .encryptedDisk, "k3", ttl: 60)]  // 7: wider
            + Self.batch(Self.setB, reason: "policy-reloaded", [("public", .memory, 60)])  // 8-9
            + [Self.store("public", .memory, "k4", ttl: 60),  // 10: allowed
               Self.store("public", .disk, "k5", ttl: 60),  // 11: wider than B allows
               Self.store("private", .memory, "k6", ttl: 1)]  // 12: tier not in B
        let report = AuditReconciler.report(
            records: try Self.records(entries), verification: AuditVerification(recordCount: entries.count, lastHash: .zero, failure: nil),
            inventory: [], allowedStorage: ["public": .memory, "private": .memory])
        let a = "policy \(Self.setA.hex.prefix(16))… (record 2)", b = "policy \(Self.setB.hex.prefix(16))… (record 8)"
        #expect(report.violations.map(\.kind) == Array(repeating: .forbiddenByPolicyInForce, count: 4))
        #expect(report.violations.map(\.seq) == [6, 7, 11, 12])
        #expect(report.violations.map(\.evidence) == [
            "store record 6 has ttl 601; tier public allowed at most maxTTL 600 under \(a)",
            "store record 7 stored in encrypted-disk; tier private allowed at most memory under \(a)",
            "store record 11 stored in disk; tier public allowed at most memory under \(b)",
            "store record 12 names tier private, which was not defined under \(b)",
        ])
        #expect(report.policies == [
            AuditReport.PolicyUse(digest: Self.setA.hex, seq: 2, reason: "policy-loaded", stores: 3),
            AuditReport.PolicyUse(digest: Self.setB.hex, seq: 8, reason: "policy-reloaded", stores: 3),
        ])
        // Policy records are no tier's activity: the rows count the stores only.
        #expect(report.tiers.first { $0.tier == "public" }?.rows.map(\.storage) == [.disk, .memory])
        #expect(report.text.contains("\npolicy \(Self.setA.hex) from record 2 (policy-loaded): 3 stores\n"
            + "policy \(Self.setB.hex) from record 8 (policy-reloaded): 3 stores\n"))
    }

    /// A log without `policy` records (an earlier version's) is judged by the policies given, as before.
    @Test func withoutPolicyRecordsTheGivenPoliciesJudge() throws {
        let entries = [AuditEntry(event: .start), Self.store("public", .disk, "k1", ttl: 10)]
        let report = AuditReconciler.report(
            records: try Self.records(entries), verification: AuditVerification(recordCount: 2, lastHash: .zero, failure: nil),
            inventory: [], allowedStorage: ["public": .memory])
        #expect(report.violations.map(\.kind) == [.storeWiderThanTier])
        #expect(report.policies.isEmpty)
    }
}
