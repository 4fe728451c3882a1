import Foundation
import HTTPCaching
import MediaAudit
import MediaPolicy
import MediaTestSupport
@testable import MediaService
import Testing

/// A tier narrowed (or removed) between two runs: the files the earlier process kept for it go at the
/// next start, each removal audited, so no plaintext stays behind and `mediactl audit` finds nothing.
@Suite struct NarrowedTierTests {
    static let token = "tok-narrowed-7f6e5d4c"

    /// The default policies with `avatar` and `private` kept in memory only.
    static let narrowedPolicy = PipelineHarness.defaultPolicy
        .replacingOccurrences(of: #""avatar":  { "storage": "disk""#, with: #""avatar":  { "storage": "memory""#)
        .replacingOccurrences(of: #""private": { "storage": "encrypted-disk""#, with: #""private": { "storage": "memory""#)

    @Test func filesOfNarrowedTiersAreRemovedAtStartAndAudited() async throws {
        #expect(Self.narrowedPolicy.contains(#""avatar":  { "storage": "memory""#))
        #expect(Self.narrowedPolicy.contains(#""private": { "storage": "memory""#))
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("narrowed-\(UUID().uuidString)").path
        let policies = try PolicyLoader().load(sources: [.init(name: "Policies/test.json",
                                                               bytes: Array(PipelineHarness.defaultPolicy.utf8))])
        let origin = CountingOriginFetcher()
        let earlierLog = InMemoryAuditLog()
        // The earlier process, under the wider policies; killed (not stopped), so its sealed file stays.
        let earlier = try MediaService(policies: policies, fetcher: origin, configuration: .init(
            stateDirectory: directory, clock: { 1_800_000_000 }, synchronizesWrites: false), auditLog: earlierLog)
        let avatar = try Fixtures.bytes("avatars/u1001.jpg")
        let receipt = try Fixtures.bytes("receipts/r-7731.png")
        origin.setReply(.init(fields: ["Cache-Control": "max-age=300"], body: avatar), for: "http://origin.test/avatars/u1001.jpg")
        origin.setReply(.init(fields: ["Cache-Control": "max-age=300"], body: receipt), for: "http://origin.test/receipts/r-7731.png")
        #expect(await earlier.handle(ServiceRequest(target: "/avatars/u1001.jpg")).outcome.storage == .stored(.disk))
        #expect(await earlier.handle(ServiceRequest(
            target: "/receipts/r-7731.png", fields: ["Authorization": "Bearer " + Self.token])).outcome.storage == .stored(.encryptedDisk))
        earlier.flushWrites()
        let stores = earlierLog.records.filter { $0.entry.event == .store }
        #expect(stores.map { $0.entry.tier?.rawValue } == ["avatar", "private"])

        let restarted = try PipelineHarness(policyJSON: Self.narrowedPolicy, stateDirectory: directory)
        #expect(restarted.responseFilesUnderState().map(\.path) == [])
        let all = try restarted.auditRecords(includingPolicy: true)
        // The `policy` batch after `start` (one summary, one record per tier of the narrowed set).
        #expect(all.dropFirst().prefix { $0.entry.event == .policy }.count == 1 + 4)
        let records = all.filter { $0.entry.event != .policy }
        #expect(records.map { "\($0.entry.event.rawValue):\($0.entry.tier?.rawValue ?? "-"):\($0.entry.reason?.rawValue ?? "-")" }
                == ["start:-:service-start", "evict:avatar:tier-storage-changed",
                    "shred:private:unreadable-after-restart", "shred:private:unreadable-after-restart"])
        #expect(records[1].entry.key == stores[0].entry.key)
        #expect(records[1].entry.storage == .disk)
        #expect(records[1].entry.route?.rawValue == "avatars")
        #expect(records[1].entry.bytes == avatar.count)
        #expect(records[2].entry.key == stores[1].entry.key)
        #expect(records[3].entry.count == 1)
        // What `mediactl audit` judges under the narrowed policies: nothing left on disk, the chain intact.
        let report = AuditReconciler.report(
            records: all, verification: try AuditVerifier.verify(stateDirectory: directory), inventory: [],
            allowedStorage: ["public": .disk, "avatar": .memory, "private": .memory, "no-store": .none])
        #expect(report.isClean)
        await restarted.close()
        await earlier.stop()
    }

    @Test func filesOfARemovedTierAndStrayFilesAreRemovedAtStart() async throws {
        let harness = try PipelineHarness()
        let directory = harness.stateDirectory
        await harness.service.stop()
        for folder in ["disk/retired/ab/cd", "sealed/retired/ab/cd"] {
            try FileManager.default.createDirectory(atPath: directory + "/" + folder, withIntermediateDirectories: true)
        }
        try Data("not an entry".utf8).write(to: URL(fileURLWithPath: directory + "/disk/retired/ab/cd/stray"))
        try Data(repeating: 7, count: 40).write(to: URL(fileURLWithPath: directory + "/sealed/retired/ab/cd/" + String(repeating: "ab", count: 32)))
        let restarted = try PipelineHarness(stateDirectory: directory)
        #expect(restarted.responseFilesUnderState().map(\.path) == [])
        let tail = try restarted.auditRecords().suffix(4)
        #expect(tail.map { "\($0.entry.event.rawValue):\($0.entry.tier?.rawValue ?? "-"):\($0.entry.reason?.rawValue ?? "-")" }
                == ["start:-:service-start", "evict:retired:corrupt:malformed",
                    "shred:retired:unreadable-after-restart", "shred:retired:unreadable-after-restart"])
        await restarted.close()
    }
}
