import HTTPCaching
import MediaService
import MediaTestSupport
import Testing

/// Serving stale (RFC 9111 §4.2.4, RFC 5861), request directives (§5.2.1), the in-process
/// ``RequestCachePolicy`` values, and the avatar tier's version parameter.
@Suite struct StaleServingTests {
    /// First call: 200 with `cacheControl`; later calls: `later` (an error status or a thrown error).
    static func origin(_ cacheControl: String, body: [UInt8], later: Result<OriginResponse, OriginError>) -> FailingLaterOrigin {
        FailingLaterOrigin(first: OriginResponse(status: 200, fields: ["Cache-Control": cacheControl], body: body), later: later)
    }

    /// A harness whose origin answered `/catalog/camera.jpg` once with `cacheControl` (then `later`), that response
    /// stored, and the clock moved on by `seconds`; the origin and the body it answered.
    static func stored(_ cacheControl: String, later: Result<OriginResponse, OriginError>, aged seconds: Double) async throws
        -> (harness: PipelineHarness, origin: FailingLaterOrigin, jpeg: [UInt8])
    {
        let jpeg = try Fixtures.bytes("catalog/camera-74877ec7.jpg")
        let origin = Self.origin(cacheControl, body: jpeg, later: later)
        let harness = try PipelineHarness(fetcher: origin)
        _ = await harness.get("/catalog/camera.jpg")
        harness.clock.advance(seconds)
        return (harness, origin, jpeg)
    }

    @Test func staleIfErrorServesStaleWhenTheOriginAnswers503() async throws {
        let (harness, origin, jpeg) = try await Self.stored("max-age=60, stale-if-error=600", later: .success(OriginResponse(status: 503)), aged: 61)
        defer { Task { await harness.close() } }
        let stale = await harness.get("/catalog/camera.jpg")
        #expect(stale.status == 200)
        #expect(stale.body == jpeg)
        #expect(stale.fields["Cache-Status"] == "mediactl; fwd=stale; fwd-status=503; ttl=-1; detail=stale-if-error")
        #expect(stale.fields["Age"] == "61")
        #expect(origin.callCount == 2)
    }

    @Test func staleIfErrorServesStaleWhenTheOriginIsUnreachable() async throws {
        let (harness, _, _) = try await Self.stored("max-age=60, stale-if-error=600",
                                                        later: .failure(OriginError(.connectionFailed, "refused")), aged: 120)
        defer { Task { await harness.close() } }
        let stale = await harness.get("/catalog/camera.jpg")
        #expect(stale.status == 200)
        #expect(stale.fields["Cache-Status"] == "mediactl; fwd=stale; fwd-status=502; ttl=-60; detail=stale-if-error")
        // Past the stale-if-error window the failure is answered.
        harness.clock.advance(600)
        let failed = await harness.get("/catalog/camera.jpg")
        #expect(failed.status == 502)
        #expect(PipelineSupport.problemCode(failed) == "origin-connection-failed")
        #expect(PipelineSupport.problemMembers(failed)?["detail"] as? String == "the origin exchange failed: refused")
    }

    @Test func withoutStaleIfErrorAnOriginFailureIsA502Problem() async throws {
        let (harness, _, _) = try await Self.stored("max-age=60",
                                                        later: .success(OriginResponse(status: 503)), aged: 61)
        defer { Task { await harness.close() } }
        let failed = await harness.get("/catalog/camera.jpg")
        #expect(failed.status == 502)
        #expect(PipelineSupport.problemCode(failed) == "origin-error")
        #expect(failed.fields["Content-Type"] == "application/problem+json")
        #expect(PipelineSupport.problemMembers(failed)?["detail"] as? String == "the origin answered 503")
    }

    @Test func tierServeStaleOnErrorAllowsStaleWithoutTheDirective() async throws {
        let jpeg = try Fixtures.bytes("catalog/camera-74877ec7.jpg")
        let origin = Self.origin("max-age=60", body: jpeg, later: .success(OriginResponse(status: 503)))
        let policy = PipelineHarness.defaultPolicy.replacingOccurrences(
            of: "\"maxTTL\": 31536000, \"maxObjectBytes\"", with: "\"maxTTL\": 31536000, \"serveStaleOnError\": 300, \"maxObjectBytes\"")
        let harness = try PipelineHarness(policyJSON: policy, fetcher: origin)
        defer { Task { await harness.close() } }
        _ = await harness.get("/catalog/camera.jpg")
        harness.clock.advance(360)
        let stale = await harness.get("/catalog/camera.jpg")
        #expect(stale.status == 200)
        #expect(stale.fields["Cache-Status"] == "mediactl; fwd=stale; fwd-status=503; ttl=-300; detail=stale-if-error")
        harness.clock.advance(1)
        let failed = await harness.get("/catalog/camera.jpg")
        #expect(failed.status == 502)
        #expect(origin.callCount == 3)
    }

    @Test func mustRevalidateNeverServesStaleOnError() async throws {
        let (harness, origin, _) = try await Self.stored("max-age=60, must-revalidate, stale-if-error=600",
                                                        later: .success(OriginResponse(status: 503)), aged: 61)
        defer { Task { await harness.close() } }
        let failed = await harness.get("/catalog/camera.jpg")
        #expect(failed.status == 502)
        #expect(PipelineSupport.problemCode(failed) == "origin-error")
        let maxStale = await harness.get("/catalog/camera.jpg", [("Cache-Control", "max-stale")])
        #expect(maxStale.status == 502)
        #expect(origin.callCount == 3)
    }

    @Test func onlyIfCachedWithNothingStoredIs504WithoutContactingTheOrigin() async throws {
        let harness = try PipelineHarness()
        defer { Task { await harness.close() } }
        let response = await harness.get("/catalog/none.jpg", [("Cache-Control", "only-if-cached")])
        #expect(response.status == 504)
        #expect(PipelineSupport.problemCode(response) == "only-if-cached")
        #expect(PipelineSupport.problemMembers(response)?["detail"] as? String == "nothing usable is stored and only-if-cached forbids the origin")
        #expect(harness.origin.totalCallCount == 0)
    }

    @Test func maxStaleServesAStaleResponseWithoutTheOrigin() async throws {
        let (harness, origin, jpeg) = try await Self.stored("max-age=60", later: .success(OriginResponse(status: 503)), aged: 100)
        defer { Task { await harness.close() } }
        let stale = await harness.get("/catalog/camera.jpg", [("Cache-Control", "max-stale=60")])
        #expect(stale.status == 200)
        #expect(stale.body == jpeg)
        #expect(stale.fields["Cache-Status"] == "mediactl; hit; ttl=-40; detail=max-stale")
        let tooStale = await harness.get("/catalog/camera.jpg", [("Cache-Control", "max-stale=30")])
        #expect(tooStale.status == 502)
        #expect(origin.callCount == 2)
    }

    @Test func staleWhileRevalidateServesStaleAndRefreshesInTheBackground() async throws {
        let first = try Fixtures.bytes("catalog/camera-74877ec7.jpg")
        let second = try Fixtures.bytes("catalog/coins-1fea11f1.jpg")
        let origin = ScriptedOrigin { request, number in
            if request.fields["If-None-Match"] == "\"c1\"" {
                return OriginResponse(status: 304, fields: ["ETag": "\"c1\"", "Cache-Control": "max-age=60, stale-while-revalidate=30"])
            }
            return OriginResponse(status: 200, fields: ["Cache-Control": "max-age=60, stale-while-revalidate=30", "ETag": "\"c\(number)\""],
                                  body: number == 1 ? first : second)
        }
        let harness = try PipelineHarness(fetcher: origin)
        defer { Task { await harness.close() } }
        _ = await harness.get("/catalog/camera.jpg")
        harness.clock.advance(70)
        let stale = await harness.get("/catalog/camera.jpg")
        #expect(stale.status == 200)
        #expect(stale.body == first)
        #expect(stale.fields["Cache-Status"] == "mediactl; hit; ttl=-10; detail=stale-while-revalidate")
        await harness.service.waitForBackgroundRefreshes()
        #expect((try? harness.auditRecords().count) == 3)
        #expect(origin.requests.map { $0.fields["If-None-Match"] } == [nil, "\"c1\""])
        let fresh = await harness.get("/catalog/camera.jpg")
        #expect(fresh.fields["Cache-Status"] == "mediactl; hit; ttl=60")
        #expect(fresh.body == first)
        #expect(PipelineSupport.events(try harness.auditRecords()) == ["store:tier-storage", "update:not-modified"])
        // Past the stale-while-revalidate window the request waits for the validation.
        harness.clock.advance(100)
        let validated = await harness.get("/catalog/camera.jpg")
        #expect(validated.fields["Cache-Status"] == "mediactl; fwd=stale; fwd-status=304; ttl=60")
        #expect(origin.callCount == 3)
    }

    // MARK: RequestCachePolicy

    @Test func returnCacheDataDontLoadNeverContactsTheOrigin() async throws {
        let jpeg = try Fixtures.bytes("catalog/camera-74877ec7.jpg")
        let origin = Self.origin("max-age=60", body: jpeg, later: .success(OriginResponse(status: 503)))
        let harness = try PipelineHarness(fetcher: origin)
        defer { Task { await harness.close() } }
        let empty = await harness.get("/catalog/camera.jpg", policy: .returnCacheDataDontLoad)
        #expect(empty.status == 504)
        #expect(PipelineSupport.problemCode(empty) == "only-if-cached")
        #expect(origin.callCount == 0)
        _ = await harness.get("/catalog/camera.jpg")
        harness.clock.advance(3600)
        let stale = await harness.get("/catalog/camera.jpg", policy: .returnCacheDataDontLoad)
        #expect(stale.status == 200)
        #expect(stale.body == jpeg)
        #expect(stale.fields["Cache-Status"] == "mediactl; hit; ttl=-3540; detail=max-stale")
        #expect(origin.callCount == 1)
    }

    @Test func returnCacheDataElseLoadLoadsOnlyWhenNothingIsStored() async throws {
        let jpeg = try Fixtures.bytes("catalog/camera-74877ec7.jpg")
        let origin = Self.origin("max-age=60", body: jpeg, later: .success(OriginResponse(status: 503)))
        let harness = try PipelineHarness(fetcher: origin)
        defer { Task { await harness.close() } }
        let loaded = await harness.get("/catalog/camera.jpg", policy: .returnCacheDataElseLoad)
        #expect(loaded.fields["Cache-Status"] == "mediactl; fwd=uri-miss; fwd-status=200; ttl=60; stored; detail=disk")
        harness.clock.advance(3600)
        let stale = await harness.get("/catalog/camera.jpg", policy: .returnCacheDataElseLoad)
        #expect(stale.status == 200)
        #expect(stale.body == jpeg)
        #expect(stale.fields["Cache-Status"] == "mediactl; hit; ttl=-3540; detail=max-stale")
        #expect(origin.callCount == 1)
    }

    @Test func reloadIgnoringLocalCacheDataFetchesAndStores() async throws {
        let jpeg = try Fixtures.bytes("catalog/camera-74877ec7.jpg")
        let origin = ScriptedOrigin { _, _ in OriginResponse(status: 200, fields: ["Cache-Control": "max-age=60"], body: jpeg) }
        let harness = try PipelineHarness(fetcher: origin)
        defer { Task { await harness.close() } }
        _ = await harness.get("/catalog/camera.jpg")
        harness.clock.advance(10)
        let reloaded = await harness.get("/catalog/camera.jpg", policy: .reloadIgnoringLocalCacheData)
        #expect(reloaded.fields["Cache-Status"] == "mediactl; fwd=request; fwd-status=200; ttl=60; stored; detail=disk")
        #expect(origin.callCount == 2)
        #expect(harness.service.handleIfCached(ServiceRequest(target: "/catalog/camera.jpg",
                                                              cachePolicy: .reloadIgnoringLocalCacheData)) == nil)
        let hit = await harness.get("/catalog/camera.jpg")
        #expect(hit.fields["Cache-Status"] == "mediactl; hit; ttl=60")
        #expect(origin.callCount == 2)
        #expect(PipelineSupport.events(try harness.auditRecords()) == ["store:tier-storage", "store:tier-storage"])
    }

    // MARK: Avatar versioning

    @Test func unversionedAvatarIsValidatedAfter300SecondsEvenWithALongerMaxAge() async throws {
        let avatar = try Fixtures.bytes("avatars/u1002.jpg")
        let origin = ScriptedOrigin { _, _ in OriginResponse(status: 200, fields: ["Cache-Control": "max-age=3600"], body: avatar) }
        let harness = try PipelineHarness(fetcher: origin)
        defer { Task { await harness.close() } }
        let first = await harness.get("/avatars/u1002.jpg")
        #expect(first.fields["Cache-Status"] == "mediactl; fwd=uri-miss; fwd-status=200; ttl=300; stored; detail=disk")
        harness.clock.advance(299)
        let hit = await harness.get("/avatars/u1002.jpg")
        #expect(hit.fields["Cache-Status"] == "mediactl; hit; ttl=1")
        harness.clock.advance(1)
        let validated = await harness.get("/avatars/u1002.jpg")
        #expect(validated.fields["Cache-Status"] == "mediactl; fwd=stale; fwd-status=200; ttl=300; stored; detail=disk")
        #expect(origin.callCount == 2)
        let records = try harness.auditRecords()
        #expect(records.filter { $0.entry.event.rawValue == "store" }.map(\.entry.ttl) == [300, 300])
        // The cap shortens the ttl only; the record's reason is the step that chose the class.
        #expect(PipelineSupport.events(records) == ["store:tier-storage", "store:tier-storage"])
    }

    @Test func maxStaleCoveringTheExcessOverTheCapServesACappedAvatar() async throws {
        let avatar = try Fixtures.bytes("avatars/u1002.jpg")
        let origin = ScriptedOrigin { _, _ in OriginResponse(status: 200, fields: ["Cache-Control": "max-age=3600"], body: avatar) }
        let harness = try PipelineHarness(fetcher: origin)
        defer { Task { await harness.close() } }
        _ = await harness.get("/avatars/u1002.jpg")
        harness.clock.advance(400)
        let accepted = await harness.get("/avatars/u1002.jpg", [("Cache-Control", "max-stale=100")])
        #expect(accepted.fields["Cache-Status"] == "mediactl; hit; ttl=-100")
        let cached = await harness.get("/avatars/u1002.jpg", policy: .returnCacheDataDontLoad)
        #expect(cached.fields["Cache-Status"] == "mediactl; hit; ttl=-100")
        #expect(cached.body == avatar)
        #expect(origin.callCount == 1)
        let refused = await harness.get("/avatars/u1002.jpg", [("Cache-Control", "max-stale=99")])
        #expect(refused.fields["Cache-Status"] == "mediactl; fwd=stale; fwd-status=200; ttl=300; stored; detail=disk")
        #expect(origin.callCount == 2)
    }

    @Test func versionedAvatarKeepsMaxAgeAndANewVersionIsANewKey() async throws {
        let avatar = try Fixtures.bytes("avatars/u1002.jpg")
        let next = try Fixtures.bytes("avatars/u1002.next.jpg")
        let origin = ScriptedOrigin { request, _ in
            OriginResponse(status: 200, fields: ["Cache-Control": "max-age=3600"],
                           body: request.url.hasSuffix("v=3") ? next : avatar)
        }
        let harness = try PipelineHarness(fetcher: origin)
        defer { Task { await harness.close() } }
        let first = await harness.get("/avatars/u1002.jpg?v=2")
        #expect(first.fields["Cache-Status"] == "mediactl; fwd=uri-miss; fwd-status=200; ttl=3600; stored; detail=disk")
        harness.clock.advance(301)
        let hit = await harness.get("/avatars/u1002.jpg?v=2")
        #expect(hit.fields["Cache-Status"] == "mediactl; hit; ttl=3299")
        #expect(hit.body == avatar)
        let newVersion = await harness.get("/avatars/u1002.jpg?v=3")
        #expect(newVersion.fields["Cache-Status"] == "mediactl; fwd=uri-miss; fwd-status=200; ttl=3600; stored; detail=disk")
        #expect(newVersion.body == next)
        #expect(origin.requests.map(\.url) == ["http://origin.test/avatars/u1002.jpg?v=2", "http://origin.test/avatars/u1002.jpg?v=3"])
        let records = try harness.auditRecords()
        #expect(PipelineSupport.events(records) == ["store:tier-storage", "store:tier-storage"])
        #expect(records[1].entry.key != records[2].entry.key)
        #expect(records[1].entry.url?.rawValue == "http://origin.test/avatars/u1002.jpg")
    }
}

/// An origin answering 200 once, then `later` for every further request.
final class FailingLaterOrigin: OriginFetching {
    private let script: ScriptedOrigin
    private let later: Result<OriginResponse, OriginError>

    init(first: OriginResponse, later: Result<OriginResponse, OriginError>) {
        self.later = later
        script = ScriptedOrigin { _, _ in first }
    }

    var callCount: Int { script.callCount }

    func fetch(_ request: OriginRequest) async throws -> OriginResponse {
        let response = try await script.fetch(request)
        if script.callCount == 1 { return response }
        return try later.get()
    }
}
