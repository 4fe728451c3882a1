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

    private func fetchEveryTier(_ world: ServeEnvironment) throws {
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
    }

    /// The report's rows against the files found: objects per storage class, nothing forbidden anywhere.
    private func checkReportAgainstDisk(_ world: ServeEnvironment, _ report: AuditReportDocument) {
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
        withKnownIssue("shred batches have no summary record (docs/audit-format.md)", isIntermittent: true) {
            let shredded = records.filter { $0.event == "shred" && $0.key != nil }.count
            #expect(shredded == records.filter { $0.event == "shred" && $0.key == nil }.compactMap(\.count).reduce(0, +))
        }
        #expect(records.filter { $0.partition != nil }.allSatisfy { $0.url == nil })
        #expect(try world.auditVerify().exitCode == 0)
    }

    /// C19: purge by U1's credential removes U1's partition only; U2 and the shared tiers stay.
    @Test func c19PurgeByCredential() throws {
        let world = try ServeEnvironment()
        defer { world.tearDown() }
        try world.start()
        for (path, token) in [("receipts/r-7731.png", Self.u1), ("receipts/r-7732.jpg", Self.u1),
                              ("receipts/r-7731.png", Self.u2)] {
            #expect(try world.get("/" + path, token: token).cacheStatus.stored)
        }
        #expect(try world.get("/catalog/coffee-237a7131.jpg").cacheStatus.stored)
        let credentialFile = world.root.appendingPathComponent("u1.credential")
        try "Bearer \(Self.u1)\n".write(to: credentialFile, atomically: true, encoding: .utf8)
        let purge = try world.run(["purge", "--credential-file", credentialFile.path])
        #expect(purge.exitCode == 0, "\(purge.stderr)")
        #expect(purge.stdout == "purged 2 entries\n")
        try? FileManager.default.removeItem(at: credentialFile)

        #expect(!(try world.get("/receipts/r-7731.png", token: Self.u1).cacheStatus.hit))
        #expect(try world.get("/receipts/r-7731.png", token: Self.u2).cacheStatus.hit)
        #expect(try world.get("/catalog/coffee-237a7131.jpg").cacheStatus.hit)

        let purges = world.auditRecords.filter { $0.event == "purge" }
        #expect(purges.count == 3)
        #expect(purges.last?.key == nil)
        #expect(purges.last?.count == 2)
        #expect(Set(purges.map(\.partition)).count == 1)
        #expect(purges.allSatisfy { $0.reason == "purge-credential" })
        #expect(world.stop() == 0)
        #expect(StateScan.filesContaining(Self.forbiddenSlices, under: world.stateDirectory) == [])
        #expect(try world.audit().result.exitCode == 0)
    }

    /// Planted violations: a plaintext file in sealed/, an unaudited object in disk/, an edited audit
    /// line. `mediactl audit` exits 1 and names each.
    @Test func plantedViolationsAreEachNamed() throws {
        let world = try ServeEnvironment()
        defer { world.tearDown() }
        try world.start()
        #expect(try world.get("/catalog/coffee-237a7131.jpg").cacheStatus.stored)
        #expect(try world.get("/receipts/r-7731.png", token: Self.u1).cacheStatus.stored)
        #expect(world.stop() == 0)
        #expect(try world.audit().result.exitCode == 0)

        // A real disk object from another state directory: valid, readable, but never recorded here.
        let otherState = world.root.appendingPathComponent("other-state")
        let other = try MediactlProcess(policiesDirectory: world.policiesDirectory, stateDirectory: otherState)
        defer { other.cleanUp() }
        #expect(try RawHTTP.get(port: other.port, "/catalog/rocket-cfc075d1.jpg").cacheStatus.stored)
        #expect(other.terminate() == 0)
        let otherDisk = otherState.appendingPathComponent("disk")
        let copied = try #require(StateScan.objectFiles(under: otherDisk).first)
        let unauditedKey = (copied as NSString).lastPathComponent
        let target = world.stateDirectory.appendingPathComponent("disk").appendingPathComponent(copied)
        try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: otherDisk.appendingPathComponent(copied), to: target)

        // A plaintext receipt in sealed/.
        let plaintextKey = String(repeating: "ab", count: 32)
        let sealedFolder = world.stateDirectory.appendingPathComponent("sealed/ab/ab")
        try FileManager.default.createDirectory(at: sealedFolder, withIntermediateDirectories: true)
        try Data(Fixtures.bytes("receipts/r-7731.png")).write(to: sealedFolder.appendingPathComponent(plaintextKey))

        // An edited audit line: the catalog store record's byte count.
        let logURL = world.stateDirectory.appendingPathComponent("audit/audit.jsonl")
        let storeRecord = try #require(world.auditRecords.first { $0.event == "store" && $0.route == "catalog" })
        let original = try String(contentsOf: logURL, encoding: .utf8)
        let edited = original.replacingOccurrences(
            of: "\"bytes\":\(storeRecord.bytes ?? 0),\"count\":null,\"event\":\"store\"",
            with: "\"bytes\":\((storeRecord.bytes ?? 0) + 1),\"count\":null,\"event\":\"store\"")
        #expect(edited != original)
        try edited.write(to: logURL, atomically: false, encoding: .utf8)

        let (result, report) = try world.audit()
        #expect(result.exitCode == 1)
        let document = try #require(report)
        #expect(!document.clean)
        #expect(document.violations.map(\.kind) == ["broken-chain", "unrecorded-object", "not-sealed", "unrecorded-object"])
        #expect(document.violations.map(\.key) == [nil, unauditedKey, plaintextKey, plaintextKey])
        #expect(document.violations.map(\.folder) == [nil, "disk", "sealed", "sealed"])
        #expect(document.violations[0].seq == storeRecord.seq)
        #expect(document.violations[0].evidence.hasPrefix("hash-mismatch at seq \(storeRecord.seq) (audit.jsonl line \(storeRecord.seq))"))
        #expect(document.chain.failure?.kind == "hash-mismatch")

        let verify = try world.auditVerify()
        #expect(verify.exitCode == 1)
        #expect(verify.stdout.hasPrefix("failed: hash-mismatch at seq \(storeRecord.seq) (audit.jsonl line \(storeRecord.seq))"))
    }
}
