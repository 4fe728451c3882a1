import Foundation
import HTTPCaching
import MediaTestSupport
import Testing

@testable import MediaService

/// A request's stored responses are loaded and decided on once (issue 40): the synchronous path's lookup goes with
/// the request it hands to the async path (``AdmittedRequest``), which starts from that decision.
@Suite struct LookupsPerRequestTests {
    /// A harness whose service counts its lookups, with `target` at the origin (`max-age=60`, an `ETag`).
    func harness(_ lookups: Counter, _ target: String) throws -> PipelineHarness {
        let harness = try PipelineHarness(configure: { $0.lookupObserver = { _ = lookups.increment() } })
        harness.origin.setReply(.init(fields: ["Cache-Control": "max-age=60", "ETag": "\"a1\""],
                                      body: try Fixtures.bytes("catalog/coffee-237a7131.jpg")),
                                for: "http://origin.test" + target)
        return harness
    }

    /// The synchronous path (no answer), then the async path with its handoff, as the HTTP server calls them.
    func handOff(_ harness: PipelineHarness, _ target: String) async throws -> ServiceResponse {
        var admitted: AdmittedRequest?
        #expect(harness.service.handleIfCached(ServiceRequest(target: target), admitted: &admitted) == nil)
        let handoff = try #require(admitted)
        return await harness.service.handle(handoff)
    }

    @Test func aMissHandedFromTheSynchronousPathIsLookedUpOnce() async throws {
        let lookups = Counter()
        let harness = try harness(lookups, "/catalog/one.jpg")
        defer { try? FileManager.default.removeItem(atPath: harness.stateDirectory) }
        let miss = try await handOff(harness, "/catalog/one.jpg")
        #expect(miss.status == 200)
        #expect(miss.fields[.cacheStatus] == "mediactl; fwd=uri-miss; fwd-status=200; ttl=60; stored; detail=disk")
        #expect(lookups.value == 1)
        #expect(harness.origin.totalCallCount == 1)
    }

    @Test func aStaleResponseHandedFromTheSynchronousPathIsLookedUpOnce() async throws {
        let lookups = Counter()
        let harness = try harness(lookups, "/catalog/two.jpg")
        defer { try? FileManager.default.removeItem(atPath: harness.stateDirectory) }
        #expect(await harness.get("/catalog/two.jpg").status == 200)
        harness.clock.advance(61)
        let before = lookups.value
        let validated = try await handOff(harness, "/catalog/two.jpg")
        #expect(validated.status == 200)
        #expect(validated.fields[.cacheStatus] == "mediactl; fwd=stale; fwd-status=200; ttl=60; stored; detail=disk")
        #expect(lookups.value - before == 1)
    }

    @Test func aMissAnsweredByTheAsyncPathAloneIsLookedUpOnce() async throws {
        let lookups = Counter()
        let harness = try harness(lookups, "/catalog/three.jpg")
        defer { try? FileManager.default.removeItem(atPath: harness.stateDirectory) }
        #expect(await harness.get("/catalog/three.jpg").status == 200)
        #expect(lookups.value == 1)
    }
}
