import HTTPCaching
@testable import MediaService
import MediaTestSupport
import Testing

/// The memory-hit fast path under concurrent hits, new stores and purges: every answer's fields
/// belong to the body it carries, and nothing is served after a purge.
@Suite struct HitPathConcurrencyTests {
    @Test func answersStayConsistentWhileTheEntryIsReplaced() async throws {
        let first = try Fixtures.bytes("catalog/horse-d29d871c.jpg")
        let second = try Fixtures.bytes("catalog/chelsea-5d40df37.jpg")
        let origin = ScriptedOrigin { _, number in
            OriginResponse(status: 200, fields: ["Cache-Control": "max-age=600", "ETag": number % 2 == 1 ? "\"A\"" : "\"B\""],
                           body: number % 2 == 1 ? first : second)
        }
        let harness = try PipelineHarness(policyJSON: HitPathSupport.policy, fetcher: origin)
        defer { Task { await harness.close() } }
        let service = harness.service
        for target in ["/mcat/c.jpg", "/catalog/c.jpg"] {
            _ = await harness.get(target)
            let results = await PipelineSupport.concurrently(6) { worker -> [String] in
                var problems: [String] = []
                for round in 0..<300 {
                    if worker == 0 && round % 30 == 0 {
                        _ = await service.handle(ServiceRequest(target: target, cachePolicy: .reloadIgnoringLocalCacheData))
                        continue
                    }
                    let request = ServiceRequest(method: round % 3 == 0 ? "HEAD" : "GET", target: target)
                    guard let answer = service.handleIfCached(request) else { continue }
                    let expected = answer.fields["ETag"] == "\"A\"" ? first : second
                    if answer.fields["Content-Length"] != String(expected.count) { problems.append("length") }
                    if answer.body != (request.method == "HEAD" ? [] : expected) { problems.append("body") }
                    if answer.status != 200 { problems.append("status \(answer.status)") }
                }
                return problems
            }
            #expect(results.flatMap { $0 } == [])
            #expect(try service.purge(.route(String(target.split(separator: "/")[0]))) == 1)
            #expect(service.handleIfCached(ServiceRequest(target: target)) == nil)
            #expect(service.hitPath.answer(ServiceRequest(target: target)) == nil)
        }
    }
}
