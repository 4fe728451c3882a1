import MediaCore
import Testing
@testable import HTTPCaching

/// The whole cycle as the service drives it: store → hit → stale → revalidate → 304 → hit.
@Suite struct ServingFlowTests {
    let t0 = Fixture.t0

    @Test func storeHitRevalidateFreshen() throws {
        let request = HTTPFields([("Accept-Encoding", "gzip"), ("Authorization", "Bearer t1")])
        let received = HTTPFields([("Date", Fixture.t0Date), ("Cache-Control", "private, max-age=10"), ("ETag", "\"v1\""),
                                   ("Vary", "Accept-Encoding"), ("Content-Type", "image/jpeg"), ("Connection", "close")])
        guard case .store(let stored) = StoredResponse.storing(method: "GET", requestFields: request, status: 200,
                                                              responseFields: received, role: .private,
                                                              requestTime: t0, responseTime: t0, digest: Fixture.digest)
        else { Issue.record("not stored"); return }
        #expect(stored.fields.contains("connection") == false)

        var hit = ServingDecision(request: CacheRequest(method: "GET", fields: request), candidates: [stored], role: .private,
                                  digest: Fixture.digest)
        #expect(hit.lookup(now: t0 + 4) == .serveFresh(index: 0, age: 4))
        #expect(stored.servedFields(now: t0 + 4)["Age"] == "4")

        var stale = ServingDecision(request: CacheRequest(method: "GET", fields: request), candidates: [stored], role: .private,
                                    digest: Fixture.digest)
        let action = stale.lookup(now: t0 + 30)
        #expect(action == .revalidate(index: 0, conditionalFields: ["If-None-Match": "\"v1\""]))

        let notModified = HTTPFields([("Date", HTTPDate.format(t0 + 31)), ("ETag", "\"v1\""), ("Cache-Control", "private, max-age=60")])
        let outcome = NotModified.apply(notModified, to: [stored], validating: 0, requestTime: t0 + 30, responseTime: t0 + 31, role: .private)
        #expect(outcome.serve == 0)
        let refreshed = try #require(outcome.response(at: 0))
        #expect(refreshed.fields["Content-Type"] == "image/jpeg")

        var again = ServingDecision(request: CacheRequest(method: "GET", fields: request), candidates: [refreshed], role: .private,
                                    digest: Fixture.digest)
        #expect(again.lookup(now: t0 + 40) == .serveFresh(index: 0, age: 10)) // response_delay 1 + resident 9
        #expect(refreshed.remainingFreshness(now: t0 + 40, role: .private) == 50)

        // A different Accept-Encoding does not match the stored variant.
        var other = ServingDecision(request: CacheRequest(method: "GET", fields: ["Accept-Encoding": "br"]), candidates: [refreshed],
                                    role: .private, digest: Fixture.digest)
        #expect(other.lookup(now: t0 + 40) == .revalidate(index: nil, conditionalFields: ["If-None-Match": "\"v1\""]))
    }
}
