import Foundation
import MediaAudit
import MediaCrypto
import MediaTestSupport
import Testing

extension ComplianceTests {
    /// Planted violations: a plaintext file in sealed/, an unaudited object in disk/, an edited audit
    /// line, a disk body swapped with its checksums recomputed unkeyed. `mediactl audit` exits 1 and names each.
    @Test func plantedViolationsAreEachNamed() throws {
        let world = try ServeEnvironment()
        defer { world.tearDown() }
        try world.start()
        #expect(try world.get("/catalog/coffee-237a7131.jpg").cacheStatus.stored)
        #expect(try world.get("/catalog/chelsea.png").cacheStatus.stored)
        #expect(try world.get("/receipts/r-7731.png", token: Self.u1).cacheStatus.stored)
        try world.settle()
        #expect(world.stop() == 0)
        #expect(try world.audit().result.exitCode == 0)

        // A disk body swapped by someone without the integrity key, its checksums recomputed unkeyed.
        let chelseaBytes = Fixtures.bytes("catalog/chelsea.png").count
        let chelsea = try #require(world.auditRecords.first { $0.event == "store" && $0.bytes == chelseaBytes })
        let swappedKey = try #require(chelsea.key)
        let swappedFile = world.stateDirectory.appendingPathComponent(
            "disk/public/\(swappedKey.prefix(2))/\(swappedKey.dropFirst(2).prefix(2))/\(swappedKey)")
        try Data(DiskFileForgery.forged(Array(try Data(contentsOf: swappedFile)), body: Array("swapped".utf8)))
            .write(to: swappedFile)

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
        // Disk objects by key: the catalog object whose record now says one byte more than its file holds, the
        // swapped body, the unaudited copy.
        let disk = [(try #require(storeRecord.key), "body-mismatch"), (swappedKey, "body-mismatch"),
                    (unauditedKey, "unrecorded-object")].sorted { $0.0 < $1.0 }
        #expect(document.violations.map(\.kind) == ["broken-chain"] + disk.map(\.1) + ["not-sealed", "unrecorded-object"])
        #expect(document.violations.map(\.key) == [nil] + disk.map(\.0) + [plaintextKey, plaintextKey])
        #expect(document.violations.map(\.folder) == [nil, "disk", "disk", "disk", "sealed", "sealed"])
        let swapped = try #require(document.violations.first { $0.key == swappedKey })
        #expect(swapped.seq == chelsea.seq)
        #expect(swapped.evidence.contains(") holds a body of 7 bytes with digest "))
        #expect(document.violations[0].seq == storeRecord.seq)
        #expect(document.violations[0].evidence.hasPrefix("hash-mismatch at seq \(storeRecord.seq) (audit.jsonl line \(storeRecord.seq))"))
        #expect(document.chain.failure?.kind == "hash-mismatch")

        let verify = try world.auditVerify()
        #expect(verify.exitCode == 1)
        #expect(verify.stdout.hasPrefix("failed: hash-mismatch at seq \(storeRecord.seq) (audit.jsonl line \(storeRecord.seq))"))
    }

    /// A planted misfiled variant: after a graceful stop, a writer appends (with the real `AuditLog`, so
    /// the chain stays intact) the `store` of a variant of the stored receipt in plaintext `disk`, with the
    /// receipt's tier and partition, and its file in `disk/private/`. `mediactl audit` exits 1 and names
    /// it as wider than its encrypted-disk source (and forbidden by the policy in force when it was written, and
    /// not allowed on disk).
    @Test func aPlantedMisfiledVariantIsNamed() throws {
        let world = try ServeEnvironment()
        defer { world.tearDown() }
        try world.start()
        #expect(try world.get("/receipts/r-7731.png", token: Self.u1).cacheStatus.stored)
        #expect(world.stop() == 0)
        #expect(try world.audit().result.exitCode == 0)

        let source = try #require(world.auditRecords.last { $0.event == "store" && $0.route == "receipts" })
        #expect(source.storage == "encrypted-disk")
        let sourceKey = try AuditDigest(hex: try #require(source.key))
        let variantKey = AuditDigest(SHA256.hash(sourceKey.hex + "?w=144"))
        let log = try AuditLog(stateDirectory: world.stateDirectory.path)
        let variant = try log.append(AuditEntry(
            event: .store, tier: try AuditName("private"), route: try AuditName("receipts"), storage: .disk,
            key: variantKey, scope: .partitioned(try AuditDigest(hex: try #require(source.partition))),
            reason: .tierStorage, bytes: 64, ttl: 600, derivedFrom: sourceKey,
            transform: try AuditTransform("w=144,fit=inside,fmt=png,q=80")))
        try log.close()
        let hex = variantKey.hex
        let folder = world.stateDirectory.appendingPathComponent("disk/private/\(hex.prefix(2))/\(hex.dropFirst(2).prefix(2))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let planted = Array(Fixtures.bytes("receipts/r-7731.png").prefix(64))
        try Data(planted).write(to: folder.appendingPathComponent(hex))

        let (result, report) = try world.audit()
        #expect(result.exitCode == 1)
        let document = try #require(report)
        #expect(document.chain.intact)
        #expect(document.violations.map(\.kind) == ["forbidden-by-policy-in-force", "variant-wider-than-source", "disk-not-allowed"])
        #expect(document.violations.map(\.key) == [hex, hex, hex])
        #expect(document.violations.map(\.seq) == [variant.seq, variant.seq, nil])
        #expect(document.violations[1].evidence == "variant \(hex) (store record \(variant.seq)) stored in disk; its source "
            + "\(sourceKey.hex) was last stored in encrypted-disk (record \(source.seq))")
        // The variant counts of the JSON document: one variant store record and object in private's disk row.
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let tiers = try #require(json["tiers"] as? [[String: Any]])
        let rows = try #require(tiers.first { $0["tier"] as? String == "private" }?["rows"] as? [[String: Any]])
        let disk = try #require(rows.first { $0["storage"] as? String == "disk" })
        #expect(disk["variantsStored"] as? Int == 1)
        #expect(disk["variantObjects"] as? Int == 1)
        #expect(try world.auditVerify().exitCode == 0)
    }
}
