import Foundation
import MediaAudit
import MediaPolicy
import MediaTestSupport
import Testing

@testable import MediaService

/// `mediactl_audit_writer_failed` and `mediactl_audit_writer_outages_total` (docs/scale-out.md, "Metrics"): the
/// gauge is 1 from the first append that throws until a retry writes the gap record; the counter counts outages.
@Suite struct AuditWriterFailedMetricTests {
    static func gauge(_ service: MediaService) -> [String] {
        service.metrics().text.split(separator: "\n").map(String.init).filter { $0.contains("mediactl_audit_writer_") }
    }

    @Test func theGaugeIsOneWhileTheLogCannotBeWrittenAndTheCounterCountsOutages() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pipeline-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let policies = try PolicyLoader().load(sources: [.init(name: "Policies/test.json",
                                                               bytes: Array(PipelineHarness.defaultPolicy.utf8))])
        let origin = CountingOriginFetcher()
        let recorder = FailingRecorder()
        let scheduler = ManualRetryScheduler()
        let service = try MediaService(policies: policies, fetcher: origin, configuration: .init(
            stateDirectory: directory, clock: { 1_800_000_000 }, synchronizesWrites: false, auditRetryScheduler: scheduler,
            auditEvents: { _ in }), auditLog: recorder)
        let image = try Fixtures.bytes("catalog/horse-d29d871c.jpg")
        for name in ["a", "b"] {
            origin.setReply(.init(fields: ["Cache-Control": "max-age=300"], body: image),
                            for: "http://origin.test/catalog/\(name).jpg")
        }
        #expect(Self.gauge(service) == [
            "# HELP mediactl_audit_writer_failed 1 while the audit log cannot be written (disk full or unwritable; retried from 1 s to every 30 s): nothing unaudited is stored, so the replica serves without caching and /_mediactl/ready answers 503.",
            "# TYPE mediactl_audit_writer_failed gauge",
            "mediactl_audit_writer_failed 0",
            "# HELP mediactl_audit_writer_outages_total Times the audit log could not be written since the start (each ends with a gap record once it is written again).",
            "# TYPE mediactl_audit_writer_outages_total counter",
            "mediactl_audit_writer_outages_total 0",
        ])
        #expect(await service.handle(ServiceRequest(target: "/catalog/a.jpg")).outcome.storage == .stored(.disk))
        recorder.fail()
        let refused = await service.handle(ServiceRequest(target: "/catalog/b.jpg"))
        #expect(refused.status == 200)
        #expect(refused.outcome.storage == .notStored)
        #expect(Self.gauge(service).filter { !$0.hasPrefix("#") }
            == ["mediactl_audit_writer_failed 1", "mediactl_audit_writer_outages_total 1"])
        recorder.heal()
        scheduler.fire()
        #expect(Self.gauge(service).filter { !$0.hasPrefix("#") }
            == ["mediactl_audit_writer_failed 0", "mediactl_audit_writer_outages_total 1"])
        #expect(await service.handle(ServiceRequest(target: "/catalog/b.jpg")).outcome.storage == .stored(.disk))
        await service.stop()
    }
}
