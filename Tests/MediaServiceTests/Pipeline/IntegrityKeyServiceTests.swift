import Foundation
import HTTPCaching
import MediaAudit
import MediaCrypto
import MediaPolicy
import MediaSigning
@testable import MediaService
import MediaStorage
import Testing

/// The install's integrity key through the service: `<state>/keys/integrity.key` made once and owner-only, and a
/// disk file forged without the key refused as corrupt.
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
        #expect(await harness.get("/" + Self.horse).outcome.storage == "disk")
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

    /// A body swapped behind the header (same length, the file tag recomputed with unkeyed SHA-256): the first read
    /// after a restart refuses it, audited `evict` `corrupt:bad-checksum` and counted evicted, and the request is a
    /// miss that fetches and stores the origin's body again.
    @Test func aFileForgedWithoutTheKeyIsAMissThatRefetches() async throws {
        let harness = try PipelineHarness()
        let body = try Fixtures.bytes(Self.horse)
        let url = "http://origin.test/" + Self.horse
        harness.origin.setReply(.init(fields: ["Cache-Control": "max-age=300"], body: body), for: url)
        #expect(await harness.get("/" + Self.horse).outcome.storage == "disk")
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
        #expect(restarted.service.metricsText.contains("mediactl_evicted_total{tier=\"public\"} 1\n"))
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
