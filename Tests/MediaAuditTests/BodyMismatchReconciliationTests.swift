import Foundation
import MediaAudit
import MediaAuditReports
import Testing

/// Planted `body-mismatch` violations: disk objects whose body (length and keyed digest, as the inventory read it)
/// is not the one their key's last `store`/`update` recorded; records without `bodyDigest` (earlier logs) and sealed
/// objects are not judged.
@Suite struct BodyMismatchReconciliationTests {
    typealias R = AuditReconcilerTests

    static func write(_ key: String, _ event: AuditEvent, _ storage: AuditStorage, bytes: Int, body: String?) -> AuditEntry {
        AuditEntry(event: event, tier: name(storage == .disk ? "public" : "private"),
                   route: name(storage == .disk ? "catalog" : "receipts"), storage: storage, key: digest(key),
                   scope: storage == .disk ? .none : .partitioned(digest("U1")), reason: try! ReasonCode("tier-storage"),
                   bytes: bytes, ttl: 60, bodyDigest: body.map(digest))
    }

    static func object(_ key: String, bytes: Int? = nil, body: String? = nil, unchecked: String? = nil) -> PersistedObject {
        PersistedObject(folder: .disk, key: digest(key).hex, bytes: 100, tier: "public",
                        path: "disk/public/\(digest(key).hex)", bodyBytes: bytes, bodyDigest: body.map(digest),
                        bodyUnchecked: unchecked)
    }

    static let entries: [AuditEntry] = [
        write("kA", .store, .disk, bytes: 5, body: "a"),  // 1: as recorded
        write("kB", .store, .disk, bytes: 5, body: "b"),  // 2: another body of the same length
        write("kC", .store, .disk, bytes: 5, body: "c"),  // 3: a longer body
        write("kU", .store, .disk, bytes: 5, body: "u1"),  // 4
        write("kU", .update, .disk, bytes: 7, body: "u2"),  // 5: the update wrote the file
        write("kO", .store, .disk, bytes: 5, body: nil),  // 6: an earlier version's record
        write("kN", .store, .disk, bytes: 5, body: "n"),  // 7: no disk layout
        write("kK", .store, .disk, bytes: 5, body: "k"),  // 8: no integrity key
        write("kL", .store, .disk, bytes: 5, body: "l"),  // 9: no key, another length
        write("kS", .store, .encryptedDisk, bytes: 5, body: "s"),  // 10: sealed, not judged
    ]

    static let inventory = [
        object("kA", bytes: 5, body: "a"),
        object("kB", bytes: 5, body: "forged"),
        object("kC", bytes: 6, body: "c"),
        object("kU", bytes: 7, body: "u2"),
        object("kO", bytes: 9, body: "anything"),
        object("kN", unchecked: "not-a-disk-entry: truncated"),
        object("kK", bytes: 5, unchecked: "unverified: no integrity key to check its tags"),
        object("kL", bytes: 6, unchecked: "unverified: no integrity key to check its tags"),
        PersistedObject(folder: .sealed, key: digest("kS").hex, bytes: 60, isSealed: true),
    ]

    static func short(_ text: String) -> String { String(digest(text).hex.prefix(16)) + "…" }

    @Test func everyPlantedBodyMismatchIsNamedWithEvidence() throws {
        let report = try R.report(Self.entries, Self.inventory)
        func path(_ key: String) -> String { "disk/public/\(digest(key).hex) (100 bytes)" }
        let expected: [(String, Int, String)] = [
            ("kB", 2, "\(path("kB")) holds a body of 5 bytes with digest \(Self.short("forged")); store record 2 recorded 5 bytes with digest \(Self.short("b"))"),
            ("kC", 3, "\(path("kC")) holds a body of 6 bytes with digest \(Self.short("c")); store record 3 recorded 5 bytes with digest \(Self.short("c"))"),
            ("kN", 7, "\(path("kN")): its body cannot be checked against store record 7 (not-a-disk-entry: truncated)"),
            ("kK", 8, "\(path("kK")): its body cannot be checked against store record 8 (unverified: no integrity key to check its tags)"),
            ("kL", 9, "\(path("kL")) holds a body of 6 bytes; store record 9 recorded 5 bytes with digest \(Self.short("l"))"),
        ]
        #expect(report.violations == expected.map { key, seq, evidence in
            AuditViolation(kind: .bodyMismatch, tier: "public", key: digest(key).hex, folder: .disk, seq: seq, evidence: evidence)
        }.sorted { $0.key! < $1.key! })
        #expect(report.exitCode == 1)
        let kB = digest("kB").hex
        #expect(report.text.contains("\n  body-mismatch tier=public folder=disk key=\(kB) seq=2: \(expected[0].2)\n"))
        #expect(AuditViolation.Kind.bodyMismatch.rawValue == "body-mismatch")
    }

    /// The check of the JUnit file and the HTML page.
    @Test func theReportsNameTheCheck() throws {
        let report = try R.report(Array(Self.entries[1...1]), [Self.object("kB", bytes: 5, body: "forged")])
        let context = RenderingFixtures.context
        let suites = AuditJUnitReport(report: report, context: context).suites
        let failing = suites.flatMap(\.cases).filter { !$0.failures.isEmpty }
        #expect(failing.map(\.name) == ["every disk object's body as recorded"])
        #expect(failing.map(\.classname) == ["mediactl.tier.public"])
        #expect(failing.first?.failures.map(\.kind) == [.bodyMismatch])
        let html = AuditHTMLReport(report: report, context: context).html
        #expect(html.contains("<td data-label=\"kind\">body-mismatch</td><td data-label=\"check\">every disk object"))
        #expect(html.contains("s body as recorded</td><td data-label=\"tier\">public</td><td data-label=\"folder\">disk</td>"))
        #expect(AuditCheck.check(for: .bodyMismatch) == AuditCheck("every disk object's body as recorded", kind: .bodyMismatch, scope: .tier))
    }

    /// After a prune, a checkpoint's record (seeded) stands for the store that wrote the file; a later update wins.
    @Test func checkpointRecordsAreJudgedLikeAddedOnes() throws {
        let time = AuditTime(millisecondsSinceEpoch: TestClock.start)
        let stored = AuditRecord(seq: 3, time: time, entry: Self.write("kB", .store, .disk, bytes: 5, body: "b"), prev: .zero)
        var seededOnly = AuditReconciliation(objectKeys: [digest("kB").hex], allowedStorage: R.allowed)
        seededOnly.seed(stored)
        let verification = AuditVerification(recordCount: 0, lastHash: stored.hash, failure: nil)
        let forged = [Self.object("kB", bytes: 5, body: "forged")]
        #expect(seededOnly.report(verification: verification, inventory: forged).violations.map(\.seq) == [3])
        var updated = seededOnly
        updated.add(AuditRecord(seq: 4, time: time, entry: Self.write("kB", .update, .disk, bytes: 5, body: "forged"),
                                prev: stored.hash))
        #expect(updated.report(verification: verification, inventory: forged).violations == [])
    }
}
