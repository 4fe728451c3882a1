import Foundation
import Testing

/// The compliance suite (issue 7 item 1; docs/compliance.md): run every tier through fetch, restart and
/// purge against the real binary, then check `mediactl audit --json` against the facts on disk, and
/// check that planted violations are each named.
@Suite(.enabled(if: NginxOrigin.isAvailable, "nginx is installed by scripts/test"), .serialized)
struct ComplianceTests {
    static let u1 = NginxOrigin.longTokenU1
    static let u2 = NginxOrigin.longTokenU2
    /// The one-time (no-store) image; never fetched through a storing route in these tests.
    static let oneTime = "catalog/horse-d29d871c.jpg"
    static let catalog = ["catalog/coffee-237a7131.jpg", "catalog/rocket-cfc075d1.jpg", "catalog/chelsea.png"]
    static let avatars = ["avatars/u1001.jpg", "avatars/u1002.jpg"]

    /// Byte slices whose presence in any file under the state directory is a leak: every receipt
    /// fixture, the one-time image, and the tokens.
    static var forbiddenSlices: [[UInt8]] {
        Fixtures.receipts.flatMap { Fixtures.distinctiveSlices(of: $0) }
            + Fixtures.distinctiveSlices(of: oneTime)
            + [Array(u1.utf8), Array(u2.utf8)]
    }

    func fetchEveryTier(_ world: ServeEnvironment) throws {
        for path in Self.catalog + Self.avatars {
            let response = try world.get("/" + path)
            #expect(response.status == 200, "\(path)")
            #expect(response.body == Fixtures.bytes(path), "\(path)")
        }
        for (path, token) in [("receipts/r-7731.png", Self.u1), ("receipts/attachment-3301.jpg", Self.u1),
                              ("receipts/r-7732.jpg", Self.u2)] {
            let response = try world.get("/" + path, token: token)
            #expect(response.status == 200, "\(path)")
            #expect(response.body == Fixtures.bytes(path), "\(path)")
        }
        for _ in 0..<2 {
            let response = try world.get("/one-time/horse-d29d871c.jpg")
            #expect(response.status == 200)
            #expect(response.body == Fixtures.bytes(Self.oneTime))
        }
        try world.settle()   // every stored response has its file before the state is examined
    }

    /// The report's rows against the files found: objects per storage class, nothing forbidden anywhere.
    func checkReportAgainstDisk(_ world: ServeEnvironment, _ report: AuditReportDocument) {
        let diskFiles = StateScan.objectFiles(under: world.stateDirectory.appendingPathComponent("disk"))
        let sealedFiles = StateScan.objectFiles(under: world.stateDirectory.appendingPathComponent("sealed"))
        let rows = report.tiers.flatMap(\.rows)
        #expect(rows.filter { $0.storage == "disk" }.map(\.objects).reduce(0, +) == diskFiles.count)
        #expect(rows.filter { $0.storage == "encrypted-disk" }.map(\.objects).reduce(0, +) == sealedFiles.count)
        #expect(rows.filter { $0.storage == "memory" || $0.storage == "none" }.allSatisfy { $0.objects == 0 })
        // Per tier (docs/architecture.md: `disk/<tier>/ab/cd/<hex>`, `sealed/<tier>/ab/cd/<hex>`).
        for tier in report.tiers {
            #expect((tier.rows.first { $0.storage == "disk" }?.objects ?? 0)
                        == diskFiles.filter { $0.hasPrefix(tier.tier + "/") }.count, "\(tier.tier) disk")
            #expect((tier.rows.first { $0.storage == "encrypted-disk" }?.objects ?? 0)
                        == sealedFiles.filter { $0.hasPrefix(tier.tier + "/") }.count, "\(tier.tier) sealed")
        }
        #expect(report.recordCount == world.auditRecords.count)
        #expect(report.chain.intact)
        #expect(report.chain.lastHash == world.auditRecords.last?.hash)
        #expect(StateScan.tempFiles(under: world.stateDirectory).isEmpty)
        #expect(StateScan.filesContaining(Self.forbiddenSlices, under: world.stateDirectory) == [])
    }

    @Test func fetchRestartPurgeThenAuditMatchesTheDisk() throws {
        let world = try ServeEnvironment()
        defer { world.tearDown() }
        try world.start()
        try fetchEveryTier(world)
        // While serving: three sealed receipts, five plaintext disk objects, nothing readable in sealed/.
        #expect(StateScan.objectFiles(under: world.stateDirectory.appendingPathComponent("sealed")).count == 3)
        #expect(StateScan.objectFiles(under: world.stateDirectory.appendingPathComponent("disk")).count == 5)
        #expect(StateScan.filesContaining(Self.forbiddenSlices, under: world.stateDirectory) == [])
        let midRun = try world.audit()
        #expect(midRun.result.exitCode == 0, "\(midRun.result.stdout)\(midRun.result.stderr)")
        if let report = midRun.report { checkReportAgainstDisk(world, report) }

        // Restart: the disk tiers survive, the sealed tier is shredded and audited.
        #expect(world.stop() == 0)
        try world.start()
        for path in Self.catalog + Self.avatars {
            #expect(try world.get("/" + path).cacheStatus.hit, "\(path) after restart")
        }
        #expect(StateScan.objectFiles(under: world.stateDirectory.appendingPathComponent("sealed")).isEmpty)
        #expect(!(try world.get("/receipts/r-7731.png", token: Self.u1).cacheStatus.hit))

        // Purge the catalog route through the running service.
        let purge = try world.run(["purge", "--route", "catalog"])
        #expect(purge.exitCode == 0, "\(purge.stderr)")
        #expect(purge.stdout == "purged 3 entries\n")
        #expect(!(try world.get("/" + Self.catalog[0]).cacheStatus.hit))
        #expect(world.stop() == 0)

        let (result, report) = try world.audit()
        #expect(result.exitCode == 0, "\(result.stdout)\(result.stderr)")
        let document = try #require(report)
        #expect(document.clean)
        #expect(document.violations.isEmpty)
        checkReportAgainstDisk(world, document)
        // public: 3 stored, 3 purged, 1 stored again after the purge; avatar: 2 stored, 2 on disk.
        #expect(document.row("public", "disk")?.stored == 4)
        #expect(document.row("public", "disk")?.purged == 3)
        #expect(document.row("public", "disk")?.objects == 1)
        #expect(document.row("avatar", "disk")?.stored == 2)
        #expect(document.row("avatar", "disk")?.objects == 2)
        // private: 4 sealed stores, every one shredded at a stop; none left.
        #expect(document.row("private", "encrypted-disk")?.stored == 4)
        #expect(document.row("private", "encrypted-disk")?.shredded == 4)
        #expect(document.row("private", "encrypted-disk")?.objects == 0)
        // no-store: two skips, never a store.
        let noStoreRows = document.tiers.first { $0.tier == "no-store" }?.rows ?? []
        #expect(noStoreRows.map(\.stored).reduce(0, +) == 0)
        #expect(noStoreRows.flatMap(\.skipped.values).reduce(0, +) == 2)
        #expect(document.tiers.first { $0.tier == "no-store" }?.allowedStorage == "none")
        // Every per-key shred/purge record is followed by its summary with the right count.
        let records = world.auditRecords
        let purged = records.filter { $0.event == "purge" && $0.key != nil }.count
        #expect(purged == records.filter { $0.event == "purge" && $0.key == nil }.compactMap(\.count).reduce(0, +))
        let shredded = records.filter { $0.event == "shred" && $0.key != nil }.count
        #expect(shredded == records.filter { $0.event == "shred" && $0.key == nil }.compactMap(\.count).reduce(0, +))
        #expect(records.filter { $0.partition != nil }.allSatisfy { $0.url == nil })
        #expect(try world.auditVerify().exitCode == 0)
    }
}
