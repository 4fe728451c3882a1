import Foundation
import MediaAudit
import MediaCore
import MediaCrypto
import MediaService
import MediaStorage
import Testing

@testable import MediaCTL

/// `mediactl audit` against the bodies on disk: a disk file whose body was swapped (checksums recomputed unkeyed)
/// is `body-mismatch`; without `keys/integrity.key` the body cannot be checked; a key others can read is refused.
@Suite struct AuditBodyCheckTests {
    static let horse = "catalog/horse-d29d871c.jpg"

    /// The one disk object's path (relative), its store record and the file's bytes.
    func diskObject(_ harness: ServiceStateHarness) throws -> (path: String, record: AuditRecord, file: [UInt8]) {
        let item = try #require(try harness.objects(in: .disk).first)
        let record = try #require(try harness.records().last { $0.entry.event == .store && $0.entry.key?.hex == item.name })
        let file = [UInt8](try Data(contentsOf: URL(fileURLWithPath: harness.stateDirectory + "/" + item.path)))
        return (item.path, record, file)
    }

    /// `file` with `body` in place of its own and both checksums recomputed as format version 1 had them.
    static func forged(_ file: [UInt8], body: [UInt8]) -> [UInt8] {
        let metadataCount = file[8..<12].reduce(0) { $0 << 8 | Int($1) }
        let metadata = Array(file[52..<(52 + metadataCount)])
        let header = Array(file[0..<12]) + (0..<8).reversed().map { UInt8(truncatingIfNeeded: body.count >> ($0 * 8)) }
        let content = header + SHA256.hash(header + metadata).bytes + metadata + body
        return content + SHA256.hash(content).bytes
    }

    func short(_ bytes: [UInt8]) -> String { String(Hex.encode(bytes).prefix(16)) + "…" }

    @Test func aSwappedBodyIsABodyMismatch() async throws {
        let harness = try ServiceStateHarness()
        defer { Task { await harness.close() } }
        try await harness.populate()
        let (path, record, file) = try diskObject(harness)
        let key = try #require(try IntegrityKeyFile.existing(stateDirectory: harness.stateDirectory))
        let horse = try ServiceStateHarness.fixture(Self.horse)
        #expect(record.entry.bodyDigest == (try AuditDigest(bytes: key.bodyDigest(of: horse))))
        let swapped = Array("not the horse".utf8)
        let forged = Self.forged(file, body: swapped)
        try Data(forged).write(to: URL(fileURLWithPath: harness.stateDirectory + "/" + path))
        let name = (path as NSString).lastPathComponent

        let result = await harness.audit()
        #expect(result.status == 1)
        #expect(result.stdout.contains("""

            violations: 1
              body-mismatch tier=public folder=disk key=\(name) seq=\(record.seq): \(path) (\(forged.count) bytes) holds a body of 13 bytes with digest \(short(key.bodyDigest(of: swapped))); store record \(record.seq) recorded \(horse.count) bytes with digest \(short(key.bodyDigest(of: horse)))

            inventory notes: 1
              not-a-disk-entry \(path): bad-checksum

            """))
        let json = await harness.audit(["--json"])
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let violations = try #require(document["violations"] as? [[String: Any]])
        #expect(violations.map { $0["kind"] as? String } == ["body-mismatch"])
        #expect(violations.map { $0["seq"] as? Int } == [record.seq])
    }

    /// The key file gone: the body cannot be checked against a record that names a digest.
    @Test func withoutTheKeyARecordedBodyCannotBeChecked() async throws {
        let harness = try ServiceStateHarness()
        defer { Task { await harness.close() } }
        try await harness.populate()
        let (path, record, file) = try diskObject(harness)
        try FileManager.default.removeItem(atPath: harness.stateDirectory + "/keys/integrity.key")
        let result = await harness.audit()
        #expect(result.status == 1)
        #expect(result.stdout.contains("""
              body-mismatch tier=public folder=disk key=\((path as NSString).lastPathComponent) seq=\(record.seq): \(path) (\(file.count) bytes): its body cannot be checked against store record \(record.seq) (unverified: no integrity key to check its tags)

            """))
        #expect(result.stdout.hasSuffix("\ninventory notes: 1\n  unverified \(path): no integrity key to check its tags\n"))
        #expect(!FileManager.default.fileExists(atPath: harness.stateDirectory + "/keys/integrity.key"))
    }

    @Test func aKeyOthersCanReadIsUnusableInput() async throws {
        let harness = try ServiceStateHarness()
        defer { Task { await harness.close() } }
        try await harness.populate()
        let keyPath = harness.stateDirectory + "/keys/integrity.key"
        #expect(chmod(keyPath, 0o640) == 0)
        let result = await harness.audit()
        #expect(result.status == 2)
        #expect(result.stdout == "")
        #expect(result.stderr == "mediactl: cannot audit state directory '\(harness.stateDirectory)': \(keyPath): has mode 0640: "
            + "readable or writable by group or others; allowed: a regular file only its owner can read or write (chmod 600)\n")
    }
}
