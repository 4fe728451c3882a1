import Foundation
import HTTPCaching
import MediaAudit
import MediaCore
import MediaPolicy
import MediaTestSupport
import Testing

@testable import MediaService

/// The service while its audit log cannot be written (docs/operations.md, "When the audit log cannot be
/// written"): misses are served and not stored, `/_mediactl/ready` answers 503 with `Retry-After` while
/// `/_mediactl/health` stays 200, reloads are refused, one line says so; a retry that works writes the gap record
/// (the decisions refused meanwhile), storing resumes and readiness returns; a stop says whether it could write `stop`.
/// Clock, scheduler and log are injected: nothing sleeps.
@Suite struct AuditOutageTests {
    static let start: Double = 1_800_000_000  // 2027-01-15T08:00:00.000Z
    static let image = "http://origin.test/catalog/b.jpg"

    final class World: Sendable {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pipeline-\(UUID().uuidString)").path
        let origin = CountingOriginFetcher()
        let clock = ManualClock(start: AuditOutageTests.start)
        let recorder: FailingRecorder
        let scheduler = ManualRetryScheduler()
        let events = WriterEventLines()
        let service: MediaService

        init() throws {
            let clock = self.clock
            recorder = FailingRecorder(clock: { Int64(clock.now * 1000) })
            let policies = try PolicyLoader().load(sources: [.init(name: "Policies/test.json",
                                                                   bytes: Array(PipelineHarness.defaultPolicy.utf8))])
            service = try MediaService(policies: policies, fetcher: origin, configuration: .init(
                stateDirectory: directory, clock: { clock.now }, synchronizesWrites: false, auditRetryScheduler: scheduler,
                auditEvents: events.handler), auditLog: recorder)
            let jpeg = try Fixtures.bytes("catalog/horse-d29d871c.jpg")
            for name in ["a", "b"] {
                origin.setReply(.init(fields: ["Cache-Control": "max-age=300"], body: jpeg),
                                for: "http://origin.test/catalog/\(name).jpg")
            }
        }

        func get(_ target: String, method: String = "GET") async -> ServiceResponse {
            await PipelineHarness.send(ServiceRequest(method: HTTPMethod(method), target: target), to: service)
        }

        var records: [AuditRecord] { recorder.inner.records }

        func close() { try? FileManager.default.removeItem(atPath: directory) }
    }

    static let failedLine = "audit log cannot be written: EPERM (1) from write /state/audit/audit.jsonl; storing stopped "
        + "(responses are served, not stored) until a retry succeeds, the first in 1 s"

    @Test func aMissIsServedNotStoredUntilARetryWritesTheGapRecord() async throws {
        let world = try World()
        defer { world.close() }
        #expect(await world.get("/catalog/a.jpg").outcome.storage == .stored(.disk))
        let ready = await world.get("/_mediactl/ready")
        #expect(ready.status == 200)
        #expect(ready.fields["Content-Type"] == "application/json")
        #expect(ready.fields["Cache-Control"] == "no-store")
        #expect(String(decoding: ready.body, as: UTF8.self) == "{\"audit\":\"ok\",\"diskSpace\":\"ok\",\"policies\":\"ok\",\"status\":\"ready\"}\n")

        world.recorder.fail()
        let first = await world.get("/catalog/b.jpg")
        #expect(first.status == 200)
        #expect(first.fields["Cache-Status"] == "mediactl; fwd=uri-miss; fwd-status=200; ttl=300; detail=audit-unavailable")
        #expect(first.outcome.storage == .notStored)
        #expect(world.events.lines == [Self.failedLine])

        world.clock.advance(0.25)
        let unready = await world.get("/_mediactl/ready")
        #expect(unready.status == 503)
        #expect(unready.fields["Content-Type"] == "application/problem+json")
        #expect(unready.fields["Retry-After"] == "1")
        #expect(unready.fields["Cache-Control"] == "no-store")
        #expect(String(decoding: unready.body, as: UTF8.self)
            == "{\"audit\":\"failing\",\"code\":\"audit-unavailable\",\"detail\":\"the audit log cannot be written since "
            + "2027-01-15T08:00:00.000Z (EPERM (1)): responses are served but not stored; next retry in 1 s\","
            + "\"diskSpace\":\"ok\",\"policies\":\"ok\",\"status\":503,"
            + "\"title\":\"Service Unavailable\",\"type\":\"https://mediactl.dev/problems/audit-unavailable\"}")
        let head = await world.get("/_mediactl/ready", method: "HEAD")
        #expect(head.status == 503)
        #expect(head.body.isEmpty)
        #expect(head.fields["Content-Length"] == String(unready.body.count))
        // Liveness is unchanged.
        let health = await world.get("/_mediactl/health")
        #expect(health.status == 200)
        #expect(String(decoding: health.body, as: UTF8.self).contains("\"status\":\"ok\""))

        let second = await world.get("/catalog/b.jpg")
        #expect(second.fields["Cache-Status"] == "mediactl; fwd=uri-miss; fwd-status=200; ttl=300; detail=audit-unavailable")
        #expect(world.origin.callCount(for: Self.image) == 2)
        #expect(throws: ServiceError.self) {
            try world.service.reload(policies: world.service.policies, digest: world.service.policyDigest)
        }

        // A retry while it still fails: silent, the next twice as late.
        world.scheduler.fire()
        #expect(world.scheduler.delays == [1000, 2000])
        #expect(world.events.lines.count == 1)
        #expect((await world.get("/_mediactl/ready")).fields["Retry-After"] == "2")

        world.recorder.heal()
        world.clock.advance(3)
        world.scheduler.fire()
        #expect(world.events.lines == [
            Self.failedLine,
            "audit log written again after 3.25 s: storing resumed; 2 storage decisions refused since "
                + "2027-01-15T08:00:00.000Z (EPERM (1)), noted in gap record 8",
        ])
        #expect((await world.get("/_mediactl/ready")).status == 200)
        #expect(world.service.auditOutage == nil)
        #expect(await world.get("/catalog/b.jpg").outcome.storage == .stored(.disk))
        #expect(await world.get("/catalog/b.jpg").fields["Cache-Status"]?.hasPrefix("mediactl; hit") == true)
        #expect(world.origin.callCount(for: Self.image) == 3)

        let gap = try #require(world.records.first { $0.event == .gap })
        #expect(gap.seq == 8)
        #expect(gap.entry == AuditEntry(event: .gap, reason: try ReasonCode("audit-unavailable:eperm"), count: 2,
                                        since: AuditTime(millisecondsSinceEpoch: 1_800_000_000_000)))
        #expect(gap.time == AuditTime(millisecondsSinceEpoch: 1_800_000_003_250))
        #expect(PipelineSupport.events(world.records) == ["store:tier-storage", "gap:audit-unavailable:eperm",
                                                          "store:tier-storage"])
        await world.service.stop()
        #expect(world.records.last?.event == .stop)
        #expect(AuditVerifier.verify(records: world.records).failure == nil)
        #expect(world.events.lines.count == 2)
    }

    /// Stopping while it still fails: one line says no `stop` record was written.
    @Test func aStopWhileTheLogCannotBeWrittenSaysSo() async throws {
        let world = try World()
        defer { world.close() }
        world.recorder.fail()
        #expect(await world.get("/catalog/b.jpg").outcome.storage == .notStored)
        await world.service.stop()
        #expect(world.events.lines == [
            Self.failedLine,
            "stopping while the audit log cannot be written (EPERM (1) from write /state/audit/audit.jsonl, since "
                + "2027-01-15T08:00:00.000Z): no stop record written; 1 storage decision refused",
        ])
        #expect(world.records.last?.event == .policy)
        #expect(!world.records.contains { $0.event == .stop })
    }

    /// Stopping once it can be written again, before the retry was due: the gap record, then `stop`.
    @Test func aStopOnceTheLogIsWritableAgainWritesTheGapThenStop() async throws {
        let world = try World()
        defer { world.close() }
        world.recorder.fail()
        _ = await world.get("/catalog/b.jpg")
        world.recorder.heal()
        world.clock.advance(0.5)
        await world.service.stop()
        #expect(world.events.lines.count == 2)
        #expect(world.events.lines.last?.hasPrefix("audit log written again after 0.5 s: storing resumed; 1 storage "
            + "decision refused since 2027-01-15T08:00:00.000Z (EPERM (1)), noted in gap record 7") == true)
        #expect(world.records.suffix(2).map(\.event) == [.gap, .stop])
        #expect(AuditVerifier.verify(records: world.records).failure == nil)
    }
}
