import Foundation
import MediaAudit
import MediaService
import MediaTestSupport
import Testing

@testable import MediaCTL

/// `mediactl audit verify-receipt`: a receipt of `tok-U1`'s purge holds against its state directory (exit 0), and
/// fails (exit 1, with the reason) when a byte of it changed, when one of the partition's files is restored from a
/// backup, and when the purge record was removed from the log and the chain re-hashed.
@Suite struct AuditVerifyReceiptCommandTests {
    /// A populated service whose `tok-U1` partition was purged with a receipt; the receipt's file and the sealed file
    /// as it was before the purge (path relative to the state directory, bytes).
    static func purged() async throws -> (ServiceStateHarness, [String], TemporaryDirectory, String, (path: String, bytes: Data)) {
        let harness = try ServiceStateHarness()
        try await harness.populate()
        let sealed = try #require(try harness.objects(in: .sealed).first)
        let backup = try Data(contentsOf: URL(fileURLWithPath: harness.stateDirectory + "/" + sealed.path))
        let (count, text) = try harness.service.purgeWithReceipt(.credential(try BearerToken(token: "tok-U1")))
        #expect(count == 1)
        let folder = try TemporaryDirectory()
        let receipt = try folder.file("receipt.json", contents: text)
        return (harness, ["--state-dir", harness.stateDirectory], folder, receipt, (sealed.path, backup))
    }

    @Test func aReceiptHoldsAgainstItsStateDirectory() async throws {
        let (harness, state, folder, receipt, _) = try await Self.purged()
        defer { Task { await harness.close() }; folder.remove() }
        let run = await harness.run(["audit", "verify-receipt", receipt] + state)
        #expect(run.status == 0, "\(run.stderr)")
        let purge = try #require(try harness.records().last { $0.entry.event == .purge })
        let partition = try #require(purge.entry.partition?.hex)
        #expect(run.stdout == "ok: purge-credential of partition \(partition.prefix(16))… at \(purge.time.rfc3339): record \(purge.seq) "
            + "is in the log's checkpoint of \(purge.seq) records; 1 object removed, none of the partition stored before it remains; "
            + "0 stored since by new requests\n")
        #expect(!(try String(contentsOfFile: receipt, encoding: .utf8)).contains("tok-U1"))
    }

    @Test func aChangedByteFails() async throws {
        let (harness, state, folder, receipt, _) = try await Self.purged()
        defer { Task { await harness.close() }; folder.remove() }
        let text = try String(contentsOfFile: receipt, encoding: .utf8)
        let changed = try folder.file("changed.json", contents: text.replacingOccurrences(of: "\"objects\":1", with: "\"objects\":0"))
        let run = await harness.run(["audit", "verify-receipt", changed] + state)
        #expect(run.status == 1)
        let origin = try #require(await harness.run(["audit", "public-key"] + state).stdout.split(separator: "+").first)
        #expect(run.stderr == "mediactl: receipt '\(changed)': not a receipt signed by this log's key (the signature of \(origin) does not verify)\n")
    }

    @Test func aFileRestoredFromABackupFails() async throws {
        let (harness, state, folder, receipt, backup) = try await Self.purged()
        defer { Task { await harness.close() }; folder.remove() }
        let path = harness.stateDirectory + "/" + backup.path
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try backup.bytes.write(to: URL(fileURLWithPath: path))
        let store = try #require(try harness.records().first { $0.entry.event == .store && $0.entry.storage == .encryptedDisk })
        let run = await harness.run(["audit", "verify-receipt", receipt] + state)
        #expect(run.status == 1)
        #expect(run.stderr == "mediactl: receipt '\(receipt)': \(backup.path) of the partition, stored by record \(store.seq), is still present after the purge\n")
    }

    /// Stores 12 more catalog images (enough records to rotate every segment written so far) and prunes all but the
    /// newest rotated segment (exit 0); the prune's checkpoint.
    static func rotateAndPrune(_ harness: ServiceStateHarness) async throws -> AuditCheckpoint {
        let horse = try ServiceStateHarness.fixture("catalog/horse-d29d871c.jpg")
        for index in 0..<12 {
            harness.origin.setReply(.init(status: 200, fields: ["Cache-Control": "public, max-age=31536000"], body: horse),
                                    for: "http://origin.test/catalog/h\(index).jpg")
            _ = await harness.service.handle(ServiceRequest(target: "/catalog/h\(index).jpg"))
        }
        harness.service.flushWrites()
        let prune = await harness.run(["audit", "prune", "--keep-segments", "1", "--state-dir", harness.stateDirectory,
                                       "--policies", harness.policiesDirectory])
        #expect(prune.status == 0, "\(prune.stderr)")
        return try #require(try AuditCheckpoint.read(directory: harness.stateDirectory + "/audit"))
    }

    /// `verify-receipt` of the receipt `text` after the file at `sealed` (relative to the state directory) was written
    /// back with `backup` (exit 0 before it was); the run and the receipt's file.
    static func verifyAfterRestoring(_ harness: ServiceStateHarness, receipt text: String, sealed: String,
                                     backup: Data) async throws -> (CLIRun, String) {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let receipt = try folder.file("receipt.json", contents: text)
        let state = ["--state-dir", harness.stateDirectory]
        #expect(await harness.run(["audit", "verify-receipt", receipt] + state).status == 0)
        let path = harness.stateDirectory + "/" + sealed
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try backup.write(to: URL(fileURLWithPath: path))
        return (await harness.run(["audit", "verify-receipt", receipt] + state), receipt)
    }

    /// The same restored file, when a prune removed its `store` record before the purge: the prune's checkpoint
    /// carries the record, so the file is still known as the partition's.
    @Test func aFileRestoredAfterItsStoreRecordWasPrunedFails() async throws {
        let harness = try ServiceStateHarness(audit: .init(maxSegmentBytes: 3_000))
        defer { Task { await harness.close() } }
        try await harness.populate()
        let sealed = try #require(try harness.objects(in: .sealed).first)
        let backup = try Data(contentsOf: URL(fileURLWithPath: harness.stateDirectory + "/" + sealed.path))
        let store = try #require(try harness.records().first { $0.entry.event == .store && $0.entry.storage == .encryptedDisk })
        #expect(try await Self.rotateAndPrune(harness).seq > store.seq)
        let (count, text) = try harness.service.purgeWithReceipt(.credential(try BearerToken(token: "tok-U1")))
        #expect(count == 1)
        let (run, receipt) = try await Self.verifyAfterRestoring(harness, receipt: text, sealed: sealed.path, backup: backup)
        #expect(run.status == 1)
        #expect(run.stderr == "mediactl: receipt '\(receipt)': \(sealed.path) of the partition, stored by record \(store.seq), is still present after the purge\n")
    }

    /// A sealed file restored after a prune removed both its `store` and its purge's records (no record names it any
    /// more): its header's data key is one the receipt says the purge destroyed.
    @Test func aSealedFileRestoredAfterThePurgeWasPrunedFailsByItsKey() async throws {
        let harness = try ServiceStateHarness(audit: .init(maxSegmentBytes: 3_000))
        defer { Task { await harness.close() } }
        try await harness.populate()
        let sealed = try #require(try harness.objects(in: .sealed).first)
        let key = try #require(sealed.sealedKeyID)
        let backup = try Data(contentsOf: URL(fileURLWithPath: harness.stateDirectory + "/" + sealed.path))
        let (count, text) = try harness.service.purgeWithReceipt(.credential(try BearerToken(token: "tok-U1")))
        #expect(count == 1)
        let purge = try #require(try harness.records().last { $0.entry.event == .purge })
        #expect(try await Self.rotateAndPrune(harness).seq > purge.seq)
        let (run, receipt) = try await Self.verifyAfterRestoring(harness, receipt: text, sealed: sealed.path, backup: backup)
        #expect(run.status == 1)
        #expect(run.stderr == "mediactl: receipt '\(receipt)': \(sealed.path), sealed with data key \(key) the purge destroyed, is still present after the purge\n")
    }

    @Test func aPurgeRecordRemovedAndTheChainRehashedFails() async throws {
        let (harness, state, folder, receipt, _) = try await Self.purged()
        defer { Task { await harness.close() }; folder.remove() }
        await harness.service.stop()
        // Every record of the purge (the key's shred, the per-key purge and the summary) removed, the rest re-chained.
        let original = try harness.records()
        let purgeSeqs = Set(original.filter { $0.entry.event == .purge || $0.entry.reason == .partitionKeyDestroyed }.map(\.seq))
        var prev = AuditDigest.zero
        var kept: [AuditRecord] = []
        for record in original where !purgeSeqs.contains(record.seq) {
            let rewritten = AuditRecord(seq: kept.count + 1, time: record.time, entry: record.entry, prev: prev)
            prev = rewritten.hash
            kept.append(rewritten)
        }
        try harness.rewriteLog(kept)
        #expect(await harness.run(["audit", "verify"] + state).status == 0)
        let run = await harness.run(["audit", "verify-receipt", receipt] + state)
        #expect(run.status == 1)
        let size = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: receipt))) as? [String: Any])
        let signed = try TreeCheckpoint(text: String((size["receipt"] as! [String: Any])["checkpoint"] as! String).split(separator: "\n\n")[0] + "\n")
        #expect(run.stderr == "mediactl: receipt '\(receipt)': the log no longer holds the tree its checkpoint of \(signed.size) records signed: records were changed or removed since\n")
    }

    @Test func aFleetFileWithoutThisReplicasEntryFails() async throws {
        let (harness, state, folder, receipt, _) = try await Self.purged()
        defer { Task { await harness.close() }; folder.remove() }
        let own = try String(contentsOfFile: receipt, encoding: .utf8).trimmingCharacters(in: .newlines)
        let fleet = try folder.file("fleet.json", contents: #"{"replicas":[{"receipt":"# + own + #","replica":"http://a:9091","status":"purged"}]}"#)
        #expect(await harness.run(["audit", "verify-receipt", fleet] + state).status == 0)
        let failedOnly = try folder.file("failed.json", contents: #"{"replicas":[{"replica":"http://b:9091","status":"failed: refused the purge: 401 admin-token-required: x"}]}"#)
        let run = await harness.run(["audit", "verify-receipt", failedOnly] + state)
        #expect(run.status == 1)
        let origin = try #require(await harness.run(["audit", "public-key"] + state).stdout.split(separator: "+").first)
        #expect(run.stderr == "mediactl: receipt '\(failedOnly)': no replica's receipt in it is signed by this log (\(origin)); replicas: http://b:9091: failed: refused the purge: 401 admin-token-required: x\n")
    }
}
