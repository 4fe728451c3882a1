import Foundation
import MediaAudit
import MediaPolicy
import Synchronization
import Testing

@testable import MediaService

/// `mediactl_audit_writer_failed` (docs/scale-out.md, "Metrics"): 0 while every record is written, 1 from
/// the first append that throws, and it stays 1.
@Suite struct AuditWriterFailedMetricTests {
    /// An in-memory log whose appends throw while ``failing`` is set.
    final class FailingRecorder: AuditRecording {
        let inner = InMemoryAuditLog()
        let failing = Mutex(false)

        func append(_ entry: AuditEntry) throws -> AuditRecord { try append(contentsOf: [entry])[0] }

        func append(contentsOf entries: [AuditEntry]) throws -> [AuditRecord] {
            if failing.withLock({ $0 }) { throw AuditError(.io, "disk full (test)") }
            return try inner.append(contentsOf: entries)
        }

        func flush() throws {}
    }

    static func gauge(_ service: MediaService) -> [String] {
        service.metricsText.split(separator: "\n").map(String.init).filter { $0.contains("mediactl_audit_writer_failed") }
    }

    @Test func theGaugeTurnsOneAtTheFirstFailedAppendAndStays() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pipeline-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let policies = try PolicyLoader().load(sources: [.init(name: "Policies/test.json",
                                                               bytes: Array(PipelineHarness.defaultPolicy.utf8))])
        let origin = CountingOriginFetcher()
        let recorder = FailingRecorder()
        let service = try MediaService(policies: policies, fetcher: origin, configuration: .init(
            stateDirectory: directory, clock: { 1_800_000_000 }, synchronizesWrites: false), auditLog: recorder)
        let image = try Fixtures.bytes("catalog/horse-d29d871c.jpg")
        for name in ["a", "b"] {
            origin.setReply(.init(fields: ["Cache-Control": "max-age=300"], body: image),
                            for: "http://origin.test/catalog/\(name).jpg")
        }
        #expect(Self.gauge(service) == [
            "# HELP mediactl_audit_writer_failed 1 once an audit record could not be written since the start (disk full or unwritable): nothing unaudited is stored, so the replica stops caching what it cannot record.",
            "# TYPE mediactl_audit_writer_failed gauge",
            "mediactl_audit_writer_failed 0",
        ])
        #expect(await service.handle(ServiceRequest(target: "/catalog/a.jpg")).outcome.storage == "disk")
        #expect(Self.gauge(service).last == "mediactl_audit_writer_failed 0")
        recorder.failing.withLock { $0 = true }
        let refused = await service.handle(ServiceRequest(target: "/catalog/b.jpg"))
        #expect(refused.status == 200)
        #expect(refused.outcome.storage != "disk")
        #expect(Self.gauge(service).last == "mediactl_audit_writer_failed 1")
        recorder.failing.withLock { $0 = false }
        #expect(await service.handle(ServiceRequest(target: "/catalog/a.jpg")).status == 200)
        #expect(Self.gauge(service).last == "mediactl_audit_writer_failed 1")
        await service.stop()
    }
}
