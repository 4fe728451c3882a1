@testable import MediaAudit

/// Known reports and a fixed context for the rendering tests.
enum RenderingFixtures {
    static let lastHash = try! AuditDigest(hex: String(repeating: "b9", count: 32))
    static let sealedKey = "fea871c8" + String(repeating: "0", count: 52) + "3361"
    static let strayKey = String(repeating: "ab", count: 32)
    /// A tier name as a stray file's metadata could carry it: markup, quotes, a control character.
    static let hostileTier = "<b>&\"x'\u{1}"

    /// 2026-11-29T11:07:15.123Z, 1.042 s, records from 10:07:15.123 to 11:07:14.123.
    static let context = AuditReportContext(
        generatedAt: AuditTime(millisecondsSinceEpoch: 1_795_950_435_123), durationMilliseconds: 1042,
        records: .init(
            first: AuditTime(millisecondsSinceEpoch: 1_795_946_835_123),
            last: AuditTime(millisecondsSinceEpoch: 1_795_950_434_123)))

    static func row(
        _ storage: AuditStorage, stored: Int = 0, skipped: [String: Int] = [:], objects: Int = 0, bytes: Int = 0,
        variantsStored: Int = 0, variantObjects: Int = 0
    ) -> AuditReport.Row {
        .counts(storage, stored: stored, skipped: skipped, objects: objects, bytes: bytes, variantsStored: variantsStored,
                variantObjects: variantObjects)
    }

    /// Two tiers, three records, no violation.
    static var clean: AuditReport {
        AuditReport(
            chain: AuditVerification(recordCount: 3, lastHash: lastHash, failure: nil), recordCount: 3,
            tiers: [
                .init(tier: "private", allowedStorage: .encryptedDisk,
                      rows: [row(.encryptedDisk, stored: 1, objects: 2, bytes: 40618)]),
                .init(tier: "public", allowedStorage: .disk,
                      rows: [row(.disk, stored: 1, skipped: ["no-store": 2, "bad-status": 1], objects: 1, bytes: 6402)]),
            ],
            violations: [])
    }

    static let chainFailure = AuditVerification.Failure(
        kind: .hashMismatch, seq: 2, file: "audit.jsonl", line: 2, detail: "hash 1f…, computed 2e…")

    /// Five violations: a broken chain, two of tier private (one of them plaintext under sealed/), one
    /// naming no tier (a stray file in sealed/ outside any tier folder) and one of a hostile tier name
    /// whose evidence holds markup, `]]>`, a tab, a line feed and a carriage return.
    static var withViolations: AuditReport {
        AuditReport(
            chain: AuditVerification(recordCount: 1, lastHash: lastHash, failure: chainFailure), recordCount: 4,
            tiers: [
                .init(tier: hostileTier, allowedStorage: nil, rows: [row(.memory, stored: 1)]),
                .init(tier: "private", allowedStorage: .encryptedDisk,
                      rows: [row(.encryptedDisk, stored: 1, objects: 2, bytes: 40618)]),
            ],
            violations: [
                AuditViolation(
                    kind: .brokenChain, seq: 2,
                    evidence: "hash-mismatch at seq 2 (audit.jsonl line 2): hash 1f…, computed 2e…"),
                AuditViolation(
                    kind: .unknownTier, tier: hostileTier, key: strayKey, seq: 3,
                    evidence: "store record 3 names tier \(hostileTier), <script>alert(1)</script> ]]> a\tb\nc\rd"),
                AuditViolation(
                    kind: .unrecordedObject, key: strayKey, folder: .sealed,
                    evidence: "sealed/ab/ab/\(strayKey) (9 bytes) has no store record"),
                AuditViolation(
                    kind: .notSealed, tier: "private", key: sealedKey, folder: .sealed,
                    evidence: "sealed/private/fe/a8/\(sealedKey) (20019 bytes) is not a sealed object"),
                AuditViolation(
                    kind: .unrecordedObject, tier: "private", key: sealedKey, folder: .sealed,
                    evidence: "sealed/private/fe/a8/\(sealedKey) (20019 bytes) has no store record"),
            ])
    }

    /// The 13 per-tier check names, in report order (written out, not taken from `AuditCheck`).
    static let tierCheckNames = [
        "no plaintext under sealed/", "no disk object in a tier that does not allow disk", "no unrecorded object",
        "no removed object still present", "every object in the storage its store record names",
        "every disk object's body as recorded", "no store in a no-store tier", "no store wider than the tier allows", "tier defined by the policies",
        "no variant wider than its source", "every variant in its source's partition",
        "every variant in its source's tier", "every variant's source recorded",
    ]
}
