import Foundation
import HTTPCaching
import MediaTestSupport
import Testing

@testable import MediaService

/// ``CacheLookup`` decides from what it is given: the admitted request, the stored responses, the time. The tier's
/// TTL cap is each stored response's lifetime cap (the avatar tier keeps an unversioned URL 300 s, whatever the
/// origin's `max-age`).
@Suite struct CacheLookupTests {
    func stored(_ harness: PipelineHarness, _ target: String) async throws -> RequestContext {
        let jpeg = try Fixtures.bytes("catalog/coffee-237a7131.jpg")
        harness.origin.setReply(.init(fields: ["Cache-Control": "max-age=3600", "ETag": "\"a1\""], body: jpeg),
                                for: "http://origin.test" + target)
        #expect(await harness.get(target).status == 200)
        guard case .success(let context) = harness.service.admit(ServiceRequest(target: target)) else {
            throw CancellationError()
        }
        return context
    }

    @Test func aStoredResponseIsServedUntilTheTiersCapThenValidated() async throws {
        let harness = try PipelineHarness()
        defer { try? FileManager.default.removeItem(atPath: harness.stateDirectory) }
        let context = try await stored(harness, "/avatars/u1.jpg")
        harness.clock.advance(299)
        guard case .serve(let index, let status, let stale) = harness.service.cacheLookup.lookup(context).decide() else {
            Issue.record("not served")
            return
        }
        #expect(index == 0)
        #expect(status == CacheStatus(hit: true, ttl: 1))
        #expect(stale == nil)
        harness.clock.advance(1)
        guard case .forward(_, let conditional, let reason, let validates) = harness.service.cacheLookup.lookup(context).decide() else {
            Issue.record("not forwarded")
            return
        }
        #expect(conditional?["if-none-match"] == "\"a1\"")
        #expect(reason == .stale)
        #expect(validates)
    }

    @Test func nothingStoredIsAFetchAndOnlyIfCachedIsAnAnswer() async throws {
        let harness = try PipelineHarness()
        defer { try? FileManager.default.removeItem(atPath: harness.stateDirectory) }
        guard case .success(let context) = harness.service.admit(ServiceRequest(target: "/catalog/none.jpg")) else {
            Issue.record("refused")
            return
        }
        let lookup = CacheLookup.Group(context: context, candidates: [], now: harness.clock.now, keys: harness.service.keys)
        guard case .forward(_, nil, .uriMiss, false) = lookup.decide() else {
            Issue.record("not a fetch")
            return
        }
        guard case .success(let onlyIfCached) = harness.service.admit(
            ServiceRequest(target: "/catalog/none.jpg", fields: ["Cache-Control": "only-if-cached"])) else {
            Issue.record("refused")
            return
        }
        guard case .answer(let response) = CacheLookup.Group(context: onlyIfCached, candidates: [], now: harness.clock.now,
                                                         keys: harness.service.keys).decide() else {
            Issue.record("not answered")
            return
        }
        #expect(response.status == 504)
    }
}
