import Dispatch
import Foundation
import HTTPCaching
import MediaAudit
import MediaPolicy
import MediaTestSupport
@testable import MediaService
@testable import MediaStorage
import Synchronization
import Testing

/// Write-behind through the pipeline: a miss on a `disk`/`encrypted-disk` tier is answered before its
/// file is written, served from memory meanwhile, and a purge (C19 logout) that comes first leaves no
/// file behind. The store's writer is held by a job of the test's own, so the interleaving is exact.
@Suite struct WriteBehindServiceTests {
    /// Holds the writer of `store` until ``open()``.
    final class Gate: Sendable {
        let semaphore = DispatchSemaphore(value: 0)
        init(_ store: EncryptedDiskStore) { Self.hold(store.files.writer, semaphore) }
        init(_ store: DiskStore) { Self.hold(store.files.writer, semaphore) }
        private static func hold(_ writer: DispatchQueue?, _ semaphore: DispatchSemaphore) {
            writer?.async { semaphore.wait() }
        }
        func open() { semaphore.signal() }
    }

    func sealedObjects(_ harness: PipelineHarness) -> [String] {
        FileManager.default.subpaths(atPath: harness.stateDirectory + "/sealed")?
            .filter { $0.split(separator: "/").last?.count == 64 } ?? []
    }

    /// A harness whose origin serves `/receipts/a.png` (a 300 s private receipt), with the sealed store's
    /// writer held by the returned gate.
    func heldReceipt() throws -> (harness: PipelineHarness, png: [UInt8], sealed: EncryptedDiskStore, gate: Gate) {
        let harness = try PipelineHarness()
        let png = try Fixtures.bytes("receipts/r-7731.png")
        harness.origin.setReply(.init(fields: ["Cache-Control": "max-age=300"], body: png), for: "http://origin.test/receipts/a.png")
        let sealed = try #require(harness.service.runtimes["private"]?.sealed)
        return (harness, png, sealed, Gate(sealed))
    }

    @Test func logoutBeforeTheSealedWriteLeavesNoFile() async throws {
        let (harness, png, sealed, gate) = try heldReceipt()
        defer { Task { await harness.close() } }
        let u1 = [("Authorization", "Bearer t1")]

        let miss = await harness.get("/receipts/a.png", u1)
        #expect(miss.fields["Cache-Status"] == "mediactl; fwd=uri-miss; fwd-status=200; ttl=300; stored; detail=encrypted-disk")
        #expect(sealedObjects(harness) == [])
        let pending = sealed.pendingWriteBytes
        #expect(pending > png.count)
        let metrics = await harness.get("/_mediactl/metrics")
        #expect(metrics.text.contains("mediactl_pending_write_bytes{tier=\"private\",store=\"encrypted-disk\"} \(pending)\n"))
        #expect(metrics.text.contains("mediactl_pending_write_bytes{tier=\"public\",store=\"disk\"} 0\n"))
        // Served from memory while the file waits.
        let hit = await harness.get("/receipts/a.png", u1)
        #expect(hit.fields["Cache-Status"] == "mediactl; hit; ttl=300")
        #expect(hit.body == png)

        #expect(try harness.service.purge(.credential(try BearerToken(token: "t1"))) == 1)
        gate.open()
        harness.service.flushWrites()
        #expect(sealedObjects(harness) == [])
        #expect(sealed.pendingWriteBytes == 0)
        let events = try harness.auditRecords().map { "\($0.entry.event.rawValue):\($0.entry.storage?.rawValue ?? "-")" }
        #expect(events == ["start:-", "store:encrypted-disk", "shred:encrypted-disk", "purge:encrypted-disk", "purge:-"])
        let again = await harness.get("/receipts/a.png", u1)
        #expect(again.fields["Cache-Status"] == "mediactl; fwd=uri-miss; fwd-status=200; ttl=300; stored; detail=encrypted-disk")
        #expect(harness.origin.totalCallCount == 2)
    }

    /// A write-behind write that fails (here: a regular file where the entry's folder belongs) is audited
    /// `evict write-failed` after its `store`, takes its hot copy along, and leaves no file: the next request
    /// is a miss.
    @Test func aFailedWriteIsAuditedAndForgotten() async throws {
        let harness = try PipelineHarness()
        defer { Task { await harness.close() } }
        let jpeg = try Fixtures.bytes("catalog/horse-d29d871c.jpg")
        harness.origin.setReply(.init(fields: ["Cache-Control": "max-age=600"], body: jpeg), for: "http://origin.test/catalog/h.jpg")
        let disk = try #require(harness.service.runtimes["public"]?.disk)
        let gate = Gate(disk)
        let miss = await harness.get("/catalog/h.jpg")
        #expect(miss.fields["Cache-Status"] == "mediactl; fwd=uri-miss; fwd-status=200; ttl=600; stored; detail=disk")
        let key = try #require(disk.inventory().first?.key)
        let folder = harness.stateDirectory + "/disk/public/" + String(KeyDigest.hex(of: key).prefix(2))
        #expect(FileManager.default.createFile(atPath: folder, contents: Data([0])))
        gate.open()
        harness.service.flushWrites()
        let events = try harness.auditRecords().map { "\($0.entry.event.rawValue):\($0.entry.reason?.rawValue ?? "-")" }
        #expect(Array(events.suffix(2)) == ["store:tier-storage", "evict:write-failed"])
        #expect(disk.inventory().isEmpty)
        #expect(harness.service.runtimes["public"]?.hot?.inventory().isEmpty == true)
        try FileManager.default.removeItem(atPath: folder)
        let again = await harness.get("/catalog/h.jpg")
        #expect(again.fields["Cache-Status"] == "mediactl; fwd=uri-miss; fwd-status=200; ttl=600; stored; detail=disk")
        #expect(harness.origin.totalCallCount == 2)
    }

    @Test func theFileLandsAfterTheResponseAndHoldsNoPlaintext() async throws {
        let (harness, png, _, gate) = try heldReceipt()
        defer { Task { await harness.close() } }
        let miss = await harness.get("/receipts/a.png", [("Authorization", "Bearer t1")])
        #expect(miss.outcome.storage == .stored(.encryptedDisk))
        #expect(sealedObjects(harness) == [])
        gate.open()
        let files = harness.filesUnderState().filter { $0.path.hasPrefix("sealed/") && $0.path.split(separator: "/").last?.count == 64 }
        #expect(files.count == 1)
        for file in files {
            for slice in SealedStorageAndPurgeTests.slices(png) { #expect(!file.bytes.contains(slice), "receipt bytes in \(file.path)") }
        }
    }

    /// A logout (C19) that begins while an exchange is committing its entry (held here inside its audit
    /// record, under the store gate): the purge waits for the commit, then removes the entry, and records it
    /// after the `store`. Without the gate the purge would finish first, find nothing, and the entry would
    /// outlive the logout. For a 304's `update` the same holds.
    /// For a file tier the store's own lock already keeps the purge's removal after the insert; for a memory
    /// tier only the gate does.
    @Test(arguments: ["store", "update"], ["memory", "encrypted-disk"])
    func aLogoutDuringACommitWaitsForItAndRemovesTheEntry(held: String, storage: String) async throws {
        let recorder = HoldingRecorder(event: held == "store" ? .store : .update)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pipeline-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let origin = CountingOriginFetcher()
        let policy = PipelineHarness.defaultPolicy.replacingOccurrences(of: #""storage": "encrypted-disk""#,
                                                                          with: "\"storage\": \"\(storage)\"")
        let policies = try PolicyLoader().load(sources: [.init(name: "Policies/test.json", bytes: Array(policy.utf8))])
        let service = try MediaService(policies: policies, fetcher: origin,
                                       configuration: .init(stateDirectory: directory, clock: { 1_800_000_000 }),
                                       auditLog: recorder)
        let png = try Fixtures.bytes("receipts/r-7731.png")
        let url = "http://origin.test/receipts/a.png"
        origin.setReply(.init(fields: ["Cache-Control": "max-age=60", "ETag": "\"a1\""], body: png), for: url)
        let u1 = ServiceRequest(target: "/receipts/a.png", fields: ["Authorization": "Bearer t1"])
        var request = u1
        if held == "update" {
            // Stored first, then revalidated (the client's no-cache) and answered 304.
            recorder.armed.withLock { $0 = false }
            _ = await service.handle(u1)
            origin.setReply(.init(status: 304, fields: ["Cache-Control": "max-age=60", "ETag": "\"a1\""]), for: url)
            recorder.armed.withLock { $0 = true }
            request = ServiceRequest(target: "/receipts/a.png", fields: ["Authorization": "Bearer t1", "Cache-Control": "no-cache"])
        }
        let exchange = Task { [request] in await service.handle(request) }
        #expect(await recorder.entered.waitOff(seconds: 10))
        let purged = DispatchSemaphore(value: 0)
        let count = Mutex<Int?>(nil)
        Thread {
            count.withLock { $0 = try? service.purge(.credential(try BearerToken(token: "t1"))) }
            purged.signal()
        }.start()
        // The purge cannot finish while the commit holds the gate (a bounded look, not a timing assumption).
        #expect(await purged.waitOff(seconds: 0.2) == false)
        recorder.release.signal()
        let response = await exchange.value
        #expect(response.status == 200)
        #expect(await purged.waitOff(seconds: 10))
        #expect(count.withLock { $0 } == 1)
        let events = recorder.inner.records.map { "\($0.entry.event.rawValue):\($0.entry.count.map(String.init) ?? "-")" }
        // An encrypted-disk partition's data key is recorded destroyed first (crypto-shredding).
        let expected = storage == "encrypted-disk" ? ["\(held):-", "shred:-", "purge:-", "purge:1"] : ["\(held):-", "purge:-", "purge:1"]
        #expect(Array(events.suffix(expected.count)) == expected)
        #expect(service.runtimes["private"]?.decidedStores.allSatisfy { $0.inventory().isEmpty } == true)
        origin.setReply(.init(fields: ["Cache-Control": "max-age=60", "ETag": "\"a1\""], body: png), for: url)
        let again = await service.handle(u1)
        #expect(again.fields["Cache-Status"]?.hasPrefix("mediactl; fwd=uri-miss;") == true)
        await service.stop()
    }
}

/// Records into an ``InMemoryAuditLog``; while ``armed``, the first record of ``event`` signals
/// ``entered`` and waits for ``release`` before it returns (the committing exchange is held there).
final class HoldingRecorder: AuditRecording {
    let inner = InMemoryAuditLog()
    let event: AuditEvent
    let armed = Mutex(true)
    let entered = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)

    init(event: AuditEvent) { self.event = event }

    func append(_ entry: AuditEntry) throws -> AuditRecord {
        let record = try inner.append(entry)
        let holds = entry.event == event && armed.withLock { armed -> Bool in
            defer { armed = false }
            return armed
        }
        if holds {
            entered.signal()
            release.wait()
        }
        return record
    }

    func append(contentsOf entries: [AuditEntry]) throws -> [AuditRecord] { try inner.append(contentsOf: entries) }

    func flush() throws {}
}

extension DispatchSemaphore {
    /// Waits up to `seconds` on a Dispatch thread, not on the cooperative pool; true when signalled.
    func waitOff(seconds: Double) async -> Bool {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(returning: self.wait(timeout: .now() + seconds) == .success)
            }
        }
    }
}
