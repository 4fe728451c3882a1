import Dispatch
import Foundation
import HTTPCaching
import MediaAudit
import MediaPolicy
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
        init(_ store: EncryptedDiskStore) {
            let semaphore = self.semaphore
            store.files.writer?.async { semaphore.wait() }
        }
        func open() { semaphore.signal() }
    }

    func sealedObjects(_ harness: PipelineHarness) -> [String] {
        FileManager.default.subpaths(atPath: harness.stateDirectory + "/sealed")?
            .filter { $0.split(separator: "/").last?.count == 64 } ?? []
    }

    @Test func logoutBeforeTheSealedWriteLeavesNoFile() async throws {
        let harness = try PipelineHarness()
        defer { Task { await harness.close() } }
        let png = try Fixtures.bytes("receipts/r-7731.png")
        harness.origin.setReply(.init(fields: ["Cache-Control": "max-age=300"], body: png), for: "http://origin.test/receipts/a.png")
        let sealed = try #require(harness.service.runtimes["private"]?.sealed)
        let gate = Gate(sealed)
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
        #expect(events == ["start:-", "store:encrypted-disk", "purge:encrypted-disk", "purge:-"])
        let again = await harness.get("/receipts/a.png", u1)
        #expect(again.fields["Cache-Status"] == "mediactl; fwd=uri-miss; fwd-status=200; ttl=300; stored; detail=encrypted-disk")
        #expect(harness.origin.totalCallCount == 2)
    }

    @Test func theFileLandsAfterTheResponseAndHoldsNoPlaintext() async throws {
        let harness = try PipelineHarness()
        defer { Task { await harness.close() } }
        let png = try Fixtures.bytes("receipts/r-7731.png")
        harness.origin.setReply(.init(fields: ["Cache-Control": "max-age=300"], body: png), for: "http://origin.test/receipts/a.png")
        let sealed = try #require(harness.service.runtimes["private"]?.sealed)
        let gate = Gate(sealed)
        let miss = await harness.get("/receipts/a.png", [("Authorization", "Bearer t1")])
        #expect(miss.outcome.storage == "encrypted-disk")
        #expect(sealedObjects(harness) == [])
        gate.open()
        let files = harness.filesUnderState().filter { $0.path.hasPrefix("sealed/") && $0.path.split(separator: "/").last?.count == 64 }
        #expect(files.count == 1)
        for start in [0, png.count / 2, png.count - 64] {
            let slice = Array(png[start..<(start + 64)])
            for file in files {
                let bytes = file.bytes
                #expect(!(0...(bytes.count - 64)).contains { bytes[$0..<$0 + 64].elementsEqual(slice) }, "plaintext at \(start)")
            }
        }
    }

    /// A logout (C19) that begins after the exchange's purge check but before its entry is indexed: the
    /// `store` record is where it lands here (an audit recorder that purges when it sees it). The purge
    /// finds nothing yet, so the entry is removed right after its insert, recorded `evict`
    /// `purged-during-fetch`, and the next request of that credential misses.
    @Test func aPurgeInsideTheStoreWindowStillRemovesTheEntry() async throws {
        let log = PurgingRecorder()
        let policy = PipelineHarness.defaultPolicy.replacingOccurrences(of: #""storage": "encrypted-disk""#,
                                                                          with: #""storage": "memory""#)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pipeline-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let origin = CountingOriginFetcher()
        let policies = try PolicyLoader().load(sources: [.init(name: "Policies/test.json", bytes: Array(policy.utf8))])
        let service = try MediaService(policies: policies, fetcher: origin,
                                       configuration: .init(stateDirectory: directory, clock: { 1_800_000_000 }),
                                       auditLog: log)
        log.service.withLock { $0 = service }
        let png = try Fixtures.bytes("receipts/r-7731.png")
        origin.setReply(.init(fields: ["Cache-Control": "max-age=300"], body: png), for: "http://origin.test/receipts/a.png")
        let u1 = ServiceRequest(target: "/receipts/a.png", fields: ["Authorization": "Bearer t1"])

        let first = await service.handle(u1)
        #expect(first.status == 200)
        #expect(first.body == png)
        #expect(first.fields["Cache-Status"] == "mediactl; fwd=uri-miss; fwd-status=200; ttl=300; detail=purged-during-fetch")
        #expect(log.inner.records.map { "\($0.entry.event.rawValue):\($0.entry.reason?.rawValue ?? "-")" }
                == ["start:service-start", "store:tier-storage", "purge:purge-credential", "evict:purged-during-fetch"])
        let again = await service.handle(u1)
        #expect(again.fields["Cache-Status"] == "mediactl; fwd=uri-miss; fwd-status=200; ttl=300; stored; detail=memory")
        #expect(origin.totalCallCount == 2)
        await service.stop()
    }
}

/// Records into an ``InMemoryAuditLog``; on the first `store` record it purges the credential `t1`
/// through ``service``, inside the store's window.
final class PurgingRecorder: AuditRecording {
    let inner = InMemoryAuditLog()
    let service = Mutex<MediaService?>(nil)
    let purged = Mutex(false)

    func append(_ entry: AuditEntry) throws -> AuditRecord {
        let record = try inner.append(entry)
        let first = entry.event == .store && purged.withLock { done -> Bool in
            defer { done = true }
            return !done
        }
        if first, let service = service.withLock({ $0 }) {
            _ = try service.purge(.credential(try BearerToken(token: "t1")))
        }
        return record
    }

    func append(contentsOf entries: [AuditEntry]) throws -> [AuditRecord] { try inner.append(contentsOf: entries) }

    func flush() throws {}
}
