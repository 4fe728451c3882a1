import Foundation
import HTTPCaching
import MediaAudit
import MediaCrypto
import MediaPolicy
import MediaSigning
@testable import MediaService
import MediaStorage
import MediaTestSupport
import Testing

/// The install's integrity key through the service: `<state>/keys/integrity.key` made once and owner-only, the
/// `bodyDigest` of `store` and `update` records, and a disk file forged without the key refused as corrupt.
@Suite struct IntegrityKeyServiceTests {
    static let horse = "catalog/horse-d29d871c.jpg"

    func key(_ harness: PipelineHarness) throws -> IntegrityKey {
        try #require(try IntegrityKeyFile.existing(stateDirectory: harness.stateDirectory))
    }

    func mode(_ path: String) throws -> Int {
        try #require(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
    }

    @Test func theKeyFileIsMadeAtTheFirstStartOwnerOnlyAndKept() async throws {
        let harness = try PipelineHarness()
        let path = harness.stateDirectory + "/" + IntegrityKeyFile.relativePath
        #expect(IntegrityKeyFile.relativePath == "keys/integrity.key")
        let bytes = try #require(FileManager.default.contents(atPath: path))
        #expect(bytes.count == 32)
        #expect(try mode(path) == 0o600)
        #expect(try mode(harness.stateDirectory + "/keys") == 0o700)
        let body = try Fixtures.bytes(Self.horse)
        harness.origin.setReply(.init(fields: ["Cache-Control": "max-age=300"], body: body), for: "http://origin.test/" + Self.horse)
        #expect(await harness.get("/" + Self.horse).outcome.storage == .stored(.disk))
        await harness.service.stop()
        // A restart reads the same key, so its files verify: a hit from the file, no origin request.
        let restarted = try PipelineHarness(stateDirectory: harness.stateDirectory)
        defer { Task { await restarted.close() } }
        #expect(FileManager.default.contents(atPath: path) == bytes)
        let hit = await restarted.get("/" + Self.horse)
        #expect(hit.fields["Cache-Status"] == "mediactl; hit; ttl=300")
        #expect(hit.body == body)
        #expect(restarted.origin.callCount(for: "http://origin.test/" + Self.horse) == 0)
        #expect(try restarted.auditRecords().filter { $0.entry.event == .evict }.isEmpty)
    }

    /// `store` records of disk and encrypted-disk bodies carry the keyed digest of the stored body; `skip` records do not.
    @Test func storeRecordsCarryTheKeyedBodyDigest() async throws {
        let harness = try PipelineHarness()
        defer { Task { await harness.close() } }
        let horse = try Fixtures.bytes(Self.horse)
        let receipt = try Fixtures.bytes("receipts/r-7731.png")
        harness.origin.setReply(.init(fields: ["Cache-Control": "max-age=300"], body: horse), for: "http://origin.test/" + Self.horse)
        harness.origin.setReply(.init(fields: ["Cache-Control": "private, max-age=300"], body: receipt),
                                for: "http://origin.test/receipts/r-7731.png")
        harness.origin.setReply(.init(fields: ["Cache-Control": "max-age=300"], body: horse),
                                for: "http://origin.test/one-time/ticket.jpg")
        #expect(await harness.get("/" + Self.horse).outcome.storage == .stored(.disk))
        #expect(await harness.get("/receipts/r-7731.png", [("Authorization", "Bearer t1")]).outcome.storage == .stored(.encryptedDisk))
        #expect(await harness.get("/one-time/ticket.jpg").outcome.storage == .notStored)
        let key = try key(harness)
        let records = try harness.auditRecords()
        #expect(PipelineSupport.events(records) == ["store:tier-storage", "store:tier-storage", "skip:tier-storage"])
        #expect(records.map(\.entry.bodyDigest) == [nil, try AuditDigest(bytes: key.bodyDigest(of: horse)),
                                                    try AuditDigest(bytes: key.bodyDigest(of: receipt)), nil])
        #expect(records.map(\.entry.bytes) == [nil, horse.count, receipt.count, horse.count])
        // Keyed: not the plain SHA-256 of the body, which anyone could compute to confirm a guess.
        #expect(records[1].entry.bodyDigest != AuditDigest(SHA256.hash(horse)))
    }

    /// A 304 rewrites the file with the same body: its `update` record names the same digest.
    @Test func updateRecordsCarryTheDigestOfTheBodyKept() async throws {
        let avatar = try Fixtures.bytes("avatars/u1001.jpg")
        let origin = RevalidationTests.validatingOrigin(body: avatar, fields: ["Cache-Control": "max-age=60", "ETag": "\"a1\""],
                                                        notModified: ["ETag": "\"a1\""])
        let harness = try PipelineHarness(fetcher: origin)
        defer { Task { await harness.close() } }
        _ = await harness.get("/avatars/u1001.jpg")
        harness.clock.advance(61)
        #expect(await harness.get("/avatars/u1001.jpg").fields["Cache-Status"] == "mediactl; fwd=stale; fwd-status=304; ttl=60")
        let records = try harness.auditRecords()
        #expect(PipelineSupport.events(records) == ["store:tier-storage", "update:not-modified"])
        let expected = try AuditDigest(bytes: try key(harness).bodyDigest(of: avatar))
        #expect(records[1].entry.bodyDigest == expected)
        #expect(records[2].entry.bodyDigest == expected)
    }

    /// A body swapped behind the header (same length, the file tag recomputed with unkeyed SHA-256): the first read
    /// after a restart refuses it, audited `evict` `corrupt:bad-checksum` and counted evicted, and the request is a
    /// miss that fetches and stores the origin's body again.
    @Test func aFileForgedWithoutTheKeyIsAMissThatRefetches() async throws {
        let harness = try PipelineHarness()
        let body = try Fixtures.bytes(Self.horse)
        let url = "http://origin.test/" + Self.horse
        harness.origin.setReply(.init(fields: ["Cache-Control": "max-age=300"], body: body), for: url)
        #expect(await harness.get("/" + Self.horse).outcome.storage == .stored(.disk))
        await harness.service.stop()
        let hex = try #require(try harness.auditRecords().first { $0.entry.event == .store }?.entry.key?.hex)
        let path = "\(harness.stateDirectory)/disk/public/\(hex.prefix(2))/\(hex.dropFirst(2).prefix(2))/\(hex)"
        var file = Array(try #require(FileManager.default.contents(atPath: path)))
        let bodyStart = file.count - 32 - body.count
        for index in bodyStart..<(bodyStart + body.count) { file[index] = 0x41 }
        file.replaceSubrange((file.count - 32)..., with: SHA256.hash(Array(file[..<(file.count - 32)])).bytes)
        try Data(file).write(to: URL(fileURLWithPath: path))

        let restarted = try PipelineHarness(stateDirectory: harness.stateDirectory)
        defer { Task { await restarted.close() } }
        restarted.origin.setReply(.init(fields: ["Cache-Control": "max-age=300"], body: body), for: url)
        let miss = await restarted.get("/" + Self.horse)
        #expect(miss.status == 200)
        #expect(miss.body == body)
        #expect(miss.fields["Cache-Status"] == "mediactl; fwd=uri-miss; fwd-status=200; ttl=300; stored; detail=disk")
        #expect(restarted.origin.callCount(for: url) == 1)
        let records = try restarted.auditRecords()
        #expect(PipelineSupport.events(records).suffix(2) == ["evict:corrupt:bad-checksum", "store:tier-storage"])
        #expect(records.last { $0.entry.event == .evict }?.entry.key?.hex == hex)
        #expect(restarted.service.metrics().text.contains("mediactl_evicted_total{tier=\"public\"} 1\n"))
        restarted.service.flushWrites()
        #expect(Array(try #require(FileManager.default.contents(atPath: path))) != file)
    }

    @Test func aKeyFileOthersCanReadStopsTheStart() async throws {
        let harness = try PipelineHarness()
        await harness.service.stop()
        let path = harness.stateDirectory + "/keys/integrity.key"
        #expect(chmod(path, 0o644) == 0)
        #expect(throws: ServiceError(.stateDirectory,
                                     "\(path): has mode 0644: readable or writable by group or others; allowed: a regular file only its owner can read or write (chmod 600)")) {
            try PipelineHarness(stateDirectory: harness.stateDirectory)
        }
        #expect(chmod(path, 0o600) == 0)
        try Data([1, 2, 3]).write(to: URL(fileURLWithPath: path))
        #expect(throws: ServiceError(.stateDirectory, "\(path): has 3 bytes; allowed: 32 bytes (made by mediactl)")) {
            try PipelineHarness(stateDirectory: harness.stateDirectory)
        }
        #expect(throws: SecretFileError.self) { try IntegrityKeyFile.existing(stateDirectory: harness.stateDirectory) }
        try? FileManager.default.removeItem(atPath: harness.stateDirectory)
    }

    /// `existing` never makes the file: `mediactl audit` reads, never writes.
    @Test func existingNeverMakesTheKey() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("integrity-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        #expect(try IntegrityKeyFile.existing(stateDirectory: folder) == nil)
        #expect(!FileManager.default.fileExists(atPath: folder + "/keys"))
        _ = try IntegrityKeyFile.open(stateDirectory: folder)
        #expect(try IntegrityKeyFile.existing(stateDirectory: folder) != nil)
    }
}
