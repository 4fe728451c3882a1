import Foundation
import HTTPCaching
import MediaAudit
import MediaCore
import MediaPolicy
import MediaService
import MediaStorage
import MediaTestSupport
import Synchronization
import Testing

@testable import MediaCTL

/// Issue 16 item 6: after a power loss no object file is durable without its `store` record. A real
/// service (real files, fsyncs, the real audit log) runs a sequence of stores, a revalidation, a purge and a
/// stop; ``PowerCut`` takes the crash state before each of its write points, and `mediactl audit`'s own
/// reconciliation (``AuditCommand``) judges every one of them: no `unrecorded-object`, no violation at all,
/// the chain intact.
@Suite(.serialized) struct PowerCutTests {
    struct Mode: Sendable, CustomTestStringConvertible {
        let writesBehind: Bool
        let maxSegmentBytes: Int
        var testDescription: String {
            (writesBehind ? "write-behind" : "synchronous") + (maxSegmentBytes < 1 << 20 ? ", rotating" : "")
        }
    }

    static let modes = [Mode(writesBehind: true, maxSegmentBytes: 8 << 20), Mode(writesBehind: false, maxSegmentBytes: 8 << 20),
                        Mode(writesBehind: true, maxSegmentBytes: 2_048)]

    @Test(arguments: modes) func noCrashStateHasAnUnrecordedObject(mode: Mode) async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let state = folder.path + "/state"
        let policies = folder.path + "/policies"
        try FileManager.default.createDirectory(atPath: policies, withIntermediateDirectories: false)
        let text = try String(contentsOf: ServiceStateHarness.repository.appendingPathComponent("Policies/default.json"),
                              encoding: .utf8)
            .replacingOccurrences(of: "http://127.0.0.1:8081/", with: "http://origin.test/")
        _ = try folder.file("policies/default.json", contents: text)
        let cut = try PowerCut(stateDirectory: state, snapshotRoot: folder.path + "/crashes")
        let origin = CountingOriginFetcher()
        let now = Mutex<Double>(1_800_000_000)
        // Group commit as in production, but with no batch or idle sync in the run: every audit fsync is one
        // the stores wait for (or a flush), so the sequence of points is the same on every run.
        let audit = AuditLog.Configuration(maxSegmentBytes: mode.maxSegmentBytes, syncEveryRecords: 1_000_000,
                                           syncIntervalMilliseconds: 3_600_000, syncsInBackground: true)
        let service = try MediaService(
            policies: try PolicyLoader().load(directory: policies), fetcher: origin,
            configuration: .init(stateDirectory: state, clock: { now.withLock { $0 } }, audit: audit,
                                 synchronizesWrites: true, writesBehind: mode.writesBehind,
                                 durabilityObservers: DurabilityObservers(files: cut, audit: cut)))

        let horse = try ServiceStateHarness.fixture("catalog/horse-d29d871c.jpg")
        let coffee = try ServiceStateHarness.fixture("catalog/coffee-237a7131.jpg")
        let receipt = try ServiceStateHarness.fixture("receipts/r-7732.jpg")
        let fresh: HTTPFields = ["Cache-Control": "max-age=60", "ETag": "\"h1\""]
        origin.setReply(.init(status: 200, fields: fresh, body: horse), for: "http://origin.test/catalog/horse-d29d871c.jpg")
        origin.setReply(.init(status: 200, fields: fresh, body: coffee), for: "http://origin.test/catalog/coffee-237a7131.jpg")
        origin.setReply(.init(status: 200, fields: ["Cache-Control": "private, max-age=60"], body: receipt),
                        for: "http://origin.test/receipts/r-7732.jpg", authorization: .value("Bearer tok-U1"))
        func get(_ target: String, bearer: String? = nil) async -> ServiceResponse {
            let response = await service.handle(ServiceRequest(
                target: target, fields: bearer.map { ["Authorization": "Bearer \($0)"] } ?? [:]))
            service.flushWrites()
            return response
        }
        #expect(await get("/catalog/horse-d29d871c.jpg").outcome.storage == .stored(.disk))
        #expect(await get("/catalog/coffee-237a7131.jpg").outcome.storage == .stored(.disk))
        #expect(await get("/receipts/r-7732.jpg", bearer: "tok-U1").outcome.storage == .stored(.encryptedDisk))
        // Stale after two minutes: revalidated, the 304 rewrites the file (audited `update`).
        now.withLock { $0 += 120 }
        origin.setReply(.init(status: 304, fields: fresh), for: "http://origin.test/catalog/horse-d29d871c.jpg")
        let revalidated = await get("/catalog/horse-d29d871c.jpg")
        #expect(revalidated.status == 200)
        #expect(revalidated.body == horse)
        #expect(try service.purge(.route("catalog")) == 2)
        #expect(await get("/catalog/coffee-237a7131.jpg").outcome.storage == .stored(.disk))
        await service.stop()

        let records = try AuditReader.records(directory: state + "/audit")
        #expect(records.filter { $0.event == .store }.count == 4)
        #expect(records.filter { $0.event == .update }.count == 1)
        #expect(cut.orderViolations == [])
        let kinds: Set<String> = ["write-temporary", "sync-temporary", "rename", "sync-folder", "unlink", "will-append", "will-sync"]
        #expect(cut.kinds == kinds.union(mode.maxSegmentBytes < 1 << 20 ? ["will-rotate"] : []))
        // Five object writes of five points each, their records' appends, the purge's and stop's unlinks, the
        // start and stop records and their fsyncs: dozens of crash states, each judged below.
        #expect(cut.snapshots.count >= 40)
        var objectsSeen = 0
        for snapshot in cut.snapshots {
            let document = try AuditCommand(stateDirectories: [snapshot.stateDirectory], policiesDirectory: policies).audit(
                context: CommandContext(stdout: CapturedOutput(), stderr: CapturedOutput(), environment: [:]))
            let report = document.report
            objectsSeen += report.tiers.flatMap(\.rows).map(\.objects).reduce(0, +)
            #expect(report.violations.map(\.evidence) == [], "crash \(snapshot.index) before \(snapshot.point)")
            #expect(report.chain.isIntact, "crash \(snapshot.index) before \(snapshot.point)")
        }
        // Not vacuous: most crash states hold object files (the renames of this run, kept at worst).
        #expect(objectsSeen >= cut.snapshots.count)
    }
}
