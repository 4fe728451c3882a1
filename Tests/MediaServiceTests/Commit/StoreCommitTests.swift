import Foundation
import HTTPCaching
import MediaTestSupport
import Testing

@testable import MediaService

/// ``StoreCommit`` decides and writes with its record: a response is stored and audited `store`, and one whose
/// request was admitted before a purge began is audited `skip` `purged-during-fetch` and not stored.
@Suite struct StoreCommitTests {
    func context(_ harness: PipelineHarness, _ target: String) throws -> RequestContext {
        guard case .success(let context) = harness.service.admit(ServiceRequest(target: target)) else {
            throw CancellationError()
        }
        return context
    }

    func decide(_ harness: PipelineHarness, _ context: RequestContext, _ jpeg: [UInt8]) throws -> Exchange.Content? {
        let image = try ImageValidator(configuration: .init()).validate(jpeg)
        let exchange = harness.service.storeCommit.decideAndStore(
            context, response: OriginResponse(status: 200, fields: ["Cache-Control": "max-age=60"], body: jpeg),
            fields: context.originFields, image: image, requestTime: harness.clock.now, responseTime: harness.clock.now,
            reason: .uriMiss)
        guard case .content(let content) = exchange.result else { return nil }
        return content
    }

    @Test func aResponseIsStoredWithItsRecord() async throws {
        let harness = try PipelineHarness()
        defer { try? FileManager.default.removeItem(atPath: harness.stateDirectory) }
        let jpeg = try Fixtures.bytes("catalog/coffee-237a7131.jpg")
        let content = try #require(try decide(harness, try context(harness, "/catalog/a.jpg"), jpeg))
        #expect(content.storage == .stored(.disk))
        #expect(content.storeKey != nil)
        #expect(content.cacheStatus.description == "mediactl; fwd=uri-miss; fwd-status=200; ttl=60; stored; detail=disk")
        #expect(try harness.auditRecords().map(\.entry.event) == [.start, .store])
    }

    @Test func aPurgeAfterAdmissionStoresNothing() async throws {
        let harness = try PipelineHarness()
        defer { try? FileManager.default.removeItem(atPath: harness.stateDirectory) }
        let jpeg = try Fixtures.bytes("catalog/coffee-237a7131.jpg")
        let admitted = try context(harness, "/catalog/a.jpg")
        harness.service.purgeEpoch.bump()
        let content = try #require(try decide(harness, admitted, jpeg))
        #expect(content.storage == .notStored)
        #expect(content.storeKey == nil)
        #expect(content.reason == "purged-during-fetch")
        let records = try harness.auditRecords()
        #expect(records.map(\.entry.event) == [.start, .skip])
        #expect(records.map { $0.entry.reason?.rawValue } == ["service-start", "purged-during-fetch"])
    }
}
