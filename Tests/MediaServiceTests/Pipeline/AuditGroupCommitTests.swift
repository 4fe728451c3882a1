import Foundation
import HTTPCaching
import MediaAudit
@testable import MediaService
import MediaTestSupport
import Testing

/// The service with the audit log's group commit (the default): each miss's record is in the file when
/// `handle` returns, in order, and `stop()` leaves nothing unsynced.
@Suite struct AuditGroupCommitTests {
    @Test func recordsAreWrittenBeforeTheAnswerAndSyncedByStop() async throws {
        let harness = try PipelineHarness()
        defer { try? FileManager.default.removeItem(atPath: harness.stateDirectory) }
        let log = try #require(harness.service.auditLog)
        #expect(log.configuration.syncsInBackground)
        let jpeg = try Fixtures.bytes("catalog/coffee-237a7131.jpg")
        for index in 0..<5 {
            harness.origin.setReply(.init(fields: ["Cache-Control": "max-age=600"], body: jpeg),
                                    for: "http://origin.test/catalog/g\(index).jpg")
        }
        let before = try harness.auditRecords().count
        for index in 0..<5 {
            let response = await harness.get("/catalog/g\(index).jpg")
            #expect(response.status == 200)
            // The `store` record is in the file when the answer comes back.
            let records = try harness.auditRecords()
            #expect(records.count == before + index + 1)
            #expect(records.last?.event == .store)
            #expect(records.last?.url?.rawValue == "http://origin.test/catalog/g\(index).jpg")
        }
        let records = try harness.auditRecords(includingPolicy: true)
        #expect(records.map(\.seq) == Array(1...records.count))
        await harness.service.stop()
        #expect(log.unsyncedRecords == 0)
        let final = try harness.auditRecords()
        #expect(final.last?.event == .stop)
        #expect(try AuditVerifier.verify(stateDirectory: harness.stateDirectory).isIntact)
    }
}
