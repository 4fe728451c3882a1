import Foundation
import HTTPCaching
import MediaCore
import MediaTestSupport
import Testing

@testable import MediaService

/// ``OriginExchange`` fetches and says what came back; it records and stores nothing (the pipeline audits its
/// refusals and commits what it fetched).
@Suite struct OriginExchangeTests {
    func answer(_ harness: PipelineHarness, _ target: String, conditional: HTTPFields? = nil) async throws
        -> OriginExchange.Answer
    {
        guard case .success(let context) = harness.service.admit(ServiceRequest(target: target)) else {
            throw CancellationError()
        }
        let stage = OriginExchange(fetcher: harness.origin, clock: { 1_700_000_000 })
        return await stage.run(context, fields: context.originFields, conditional: conditional, staleOnError: false).answer
    }

    @Test func eachKindOfAnswer() async throws {
        let harness = try PipelineHarness()
        defer { try? FileManager.default.removeItem(atPath: harness.stateDirectory) }
        let records = try harness.auditRecords().count
        let jpeg = try Fixtures.bytes("catalog/coffee-237a7131.jpg")
        harness.origin.setReply(.init(fields: ["Cache-Control": "max-age=60"], body: jpeg), for: "http://origin.test/catalog/a.jpg")
        harness.origin.setReply(.init(fields: ["Content-Type": "text/html"], body: Array("<html></html>".utf8)),
                                for: "http://origin.test/catalog/page.jpg")
        harness.origin.setReply(.init(status: 404), for: "http://origin.test/catalog/gone.jpg")
        harness.origin.setReply(.init(status: 503), for: "http://origin.test/catalog/down.jpg")
        harness.origin.setReply(.init(status: 304, fields: ["ETag": "\"a1\""]), for: "http://origin.test/catalog/same.jpg")

        guard case .fetched(let fetched) = try await answer(harness, "/catalog/a.jpg") else {
            Issue.record("not fetched")
            return
        }
        #expect(fetched.image?.format.mimeType == "image/jpeg")
        #expect(fetched.served.body == jpeg)
        #expect(fetched.servedETag == nil)
        guard case .refused(let refusal) = try await answer(harness, "/catalog/page.jpg") else {
            Issue.record("not refused")
            return
        }
        #expect(refusal.status == 502)
        #expect(refusal.code == "not-an-image")
        guard case .statusRefused(404, _) = try await answer(harness, "/catalog/gone.jpg") else {
            Issue.record("404 not refused")
            return
        }
        guard case .failed(503, let problem) = try await answer(harness, "/catalog/down.jpg") else {
            Issue.record("503 not a failure")
            return
        }
        #expect(problem.status == 502)
        guard case .notModified(let response) = try await answer(harness, "/catalog/same.jpg",
                                                                 conditional: ["If-None-Match": "\"a1\""]) else {
            Issue.record("304 not merged")
            return
        }
        #expect(response.fields["etag"] == "\"a1\"")
        // The stage wrote no record: refusals are audited by the pipeline that acts on them.
        #expect(try harness.auditRecords().count == records)
    }
}
