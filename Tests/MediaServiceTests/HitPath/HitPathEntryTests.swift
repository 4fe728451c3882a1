import HTTPCaching
@testable import MediaService
import MediaStorage
import MediaTestSupport
import Testing

/// The memory-hit fast path against the full path, entry by entry: freshness limits (RFC 9111 and the
/// policy cap), `Vary`, partitions, expiry, and prepared answers rebuilt when the entry changes.
@Suite struct HitPathEntryTests {
    @Test func freshUntilTheLifetimeThenTheFullPath() async throws {
        let harness = try PipelineHarness(policyJSON: HitPathSupport.policy)
        defer { Task { await harness.close() } }
        harness.origin.setReply(.init(fields: ["Cache-Control": "max-age=60, stale-while-revalidate=30", "ETag": "\"s\""],
                                      body: try Fixtures.bytes("catalog/horse-d29d871c.jpg")),
                                for: "http://origin.test/mcat/s.jpg")
        _ = await harness.get("/mcat/s.jpg")
        harness.clock.advance(59)
        let last = HitPathSupport.compare(harness.service, HitPathSupport.request("/mcat/s.jpg"))
        #expect(last.fast)
        #expect(last.response?.fields["Cache-Status"] == "mediactl; hit; ttl=1")
        harness.clock.advance(1)
        let stale = HitPathSupport.compare(harness.service, HitPathSupport.request("/mcat/s.jpg"))
        #expect(!stale.fast)
        #expect(stale.response == nil)
        let maxStale = HitPathSupport.compare(harness.service, HitPathSupport.request("/mcat/s.jpg", [("Cache-Control", "max-stale=10")]))
        #expect(!maxStale.fast)
        #expect(maxStale.response == nil)
        // handle() serves it stale (stale-while-revalidate) through the full path.
        let served = await harness.get("/mcat/s.jpg")
        #expect(served.fields["Cache-Status"] == "mediactl; hit; ttl=0; detail=stale-while-revalidate")
        await harness.service.waitForBackgroundRefreshes()
    }

    @Test func policyCapAppliesToUnversionedAvatarsOnly() async throws {
        let harness = try PipelineHarness(policyJSON: HitPathSupport.policy)
        defer { Task { await harness.close() } }
        let avatar = try Fixtures.bytes("avatars/u1001.jpg")
        for url in ["http://origin.test/avatars/a.jpg", "http://origin.test/avatars/a.jpg?v=2"] {
            harness.origin.setReply(.init(fields: ["Cache-Control": "max-age=3600"], body: avatar), for: url)
        }
        _ = await harness.get("/avatars/a.jpg")
        _ = await harness.get("/avatars/a.jpg?v=2")
        harness.clock.advance(299)
        let unversioned = HitPathSupport.compare(harness.service, HitPathSupport.request("/avatars/a.jpg"))
        #expect(unversioned.fast)
        #expect(unversioned.response?.fields["Cache-Status"] == "mediactl; hit; ttl=1")
        #expect(unversioned.response?.fields["Cache-Control"] == "max-age=300")
        let versioned = HitPathSupport.compare(harness.service, HitPathSupport.request("/avatars/a.jpg?v=2"))
        #expect(versioned.fast)
        #expect(versioned.response?.fields["Cache-Status"] == "mediactl; hit; ttl=3301")
        #expect(versioned.response?.fields["Cache-Control"] == "max-age=3600")
        harness.clock.advance(1)
        let capped = HitPathSupport.compare(harness.service, HitPathSupport.request("/avatars/a.jpg"))
        #expect(!capped.fast)
        #expect(capped.response == nil)
        let stillFresh = HitPathSupport.compare(harness.service, HitPathSupport.request("/avatars/a.jpg?v=2", method: "HEAD"))
        #expect(stillFresh.fast)
        #expect(stillFresh.response?.fields["Cache-Status"] == "mediactl; hit; ttl=3300")
        #expect(harness.origin.totalCallCount == 2)
    }

    /// A response with `Vary` answers fast only a request whose nominated fields match its secondary key; any other is
    /// the full path's (a miss here).
    @Test func varyStoredResponsesAnswerFastOnlyMatchingRequests() async throws {
        let harness = try PipelineHarness(policyJSON: HitPathSupport.policy)
        defer { Task { await harness.close() } }
        harness.origin.setReply(.init(fields: ["Cache-Control": "max-age=60", "Vary": "Accept"],
                                      body: try Fixtures.bytes("catalog/horse-d29d871c.jpg")),
                                for: "http://origin.test/catalog/v.jpg")
        _ = await harness.get("/catalog/v.jpg", [("Accept", "image/webp")])
        harness.clock.advance(5)
        let same = HitPathSupport.compare(harness.service, HitPathSupport.request("/catalog/v.jpg", [("Accept", "image/webp")]))
        #expect(same.fast)
        #expect(same.response?.fields["Cache-Status"] == "mediactl; hit; ttl=55")
        #expect(same.response?.fields["Vary"] == "Accept")
        let other = HitPathSupport.compare(harness.service, HitPathSupport.request("/catalog/v.jpg", [("Accept", "image/png")]))
        #expect(!other.fast)
        #expect(other.response == nil)
        let none = HitPathSupport.compare(harness.service, HitPathSupport.request("/catalog/v.jpg"))
        #expect(!none.fast)
        #expect(none.response == nil)
    }

    @Test func bearerPartitionsNeverShareAnAnswer() async throws {
        let harness = try PipelineHarness(policyJSON: HitPathSupport.policy)
        defer { Task { await harness.close() } }
        let url = "http://origin.test/receipts/r.png"
        harness.origin.setReply(.init(fields: ["Cache-Control": "max-age=60"], body: PipelineSupport.markedPNG("MARK-U1")),
                                for: url, authorization: .value("Bearer t1"))
        harness.origin.setReply(.init(fields: ["Cache-Control": "max-age=60"], body: PipelineSupport.markedPNG("MARK-U2")),
                                for: url, authorization: .value("Bearer t2"))
        _ = await harness.get("/receipts/r.png", [("Authorization", "Bearer t1")])
        harness.clock.advance(3)
        // Each user's own entry answers on the fast path (issue 41); another user's never does.
        let own = HitPathSupport.compare(harness.service, HitPathSupport.request("/receipts/r.png", [("Authorization", "Bearer t1")]))
        #expect(own.fast)
        #expect(own.response?.text.contains("MARK-U1") == true)
        let other = HitPathSupport.compare(harness.service, HitPathSupport.request("/receipts/r.png", [("Authorization", "Bearer t2")]))
        #expect(!other.fast)
        #expect(other.response == nil)
        let anonymous = HitPathSupport.compare(harness.service, HitPathSupport.request("/receipts/r.png"))
        #expect(!anonymous.fast)
        #expect(anonymous.response?.status == 401)
        let u2 = await harness.get("/receipts/r.png", [("Authorization", "Bearer t2")])
        #expect(u2.text.contains("MARK-U2"))
        let again = HitPathSupport.compare(harness.service, HitPathSupport.request("/receipts/r.png", [("Authorization", "Bearer t2")]))
        #expect(again.fast)
        #expect(again.response?.text.contains("MARK-U2") == true)
        #expect(again.response?.text.contains("MARK-U1") == false)
        #expect(harness.origin.callCount(for: url) == 2)
    }

    @Test func forwardTierAnswersAnonymousAndCredentialedRequestsApart() async throws {
        let harness = try PipelineHarness(policyJSON: HitPathSupport.policy)
        defer { Task { await harness.close() } }
        let url = "http://origin.test/fwd/item.png"
        harness.origin.setReply(.init(fields: ["Cache-Control": "public, max-age=60"], body: PipelineSupport.markedPNG("MARK-U1")),
                                for: url, authorization: .value("Bearer t1"))
        harness.origin.setReply(.init(fields: ["Cache-Control": "max-age=60"], body: PipelineSupport.markedPNG("MARK-ANON")),
                                for: url, authorization: .none)
        _ = await harness.get("/fwd/item.png", [("Authorization", "Bearer t1")])
        _ = await harness.get("/fwd/item.png")
        let anonymous = HitPathSupport.compare(harness.service, HitPathSupport.request("/fwd/item.png"))
        #expect(!anonymous.fast)
        #expect(anonymous.response == nil)
        let own = HitPathSupport.compare(harness.service, HitPathSupport.request("/fwd/item.png", [("Authorization", "Bearer t1")]))
        #expect(!own.fast)
        #expect(own.response?.text.contains("MARK-U1") == true)
    }

    @Test func expiredEntryIsLeftToTheFullPathWhichAuditsTheExpiry() async throws {
        let harness = try PipelineHarness(policyJSON: HitPathSupport.policy)
        defer { Task { await harness.close() } }
        harness.origin.setReply(.init(fields: ["Cache-Control": "max-age=60"], body: try Fixtures.bytes("catalog/horse-d29d871c.jpg")),
                                for: "http://origin.test/mcat/e.jpg")
        _ = await harness.get("/mcat/e.jpg")
        #expect(HitPathSupport.compare(harness.service, HitPathSupport.request("/mcat/e.jpg")).fast)
        harness.clock.advance(60 + 31_536_000)
        #expect(harness.service.hitPath.answer(HitPathSupport.request("/mcat/e.jpg")) == nil)
        #expect(PipelineSupport.events(try harness.auditRecords()) == ["store:tier-storage"])
        #expect(harness.service.handleIfCached(HitPathSupport.request("/mcat/e.jpg")) == nil)
        #expect(PipelineSupport.events(try harness.auditRecords()) == ["store:tier-storage", "expire:expired"])
    }

    @Test func preparedAnswerIsRebuiltAfterA304Update() async throws {
        let avatar = try Fixtures.bytes("avatars/u1001.jpg")
        let origin = ScriptedOrigin { request, _ in
            request.fields.contains("If-None-Match")
                ? OriginResponse(status: 304, fields: ["ETag": "\"a1\"", "Cache-Control": "max-age=120",
                                                       "Access-Control-Allow-Origin": "*"])
                : OriginResponse(status: 200, fields: ["Cache-Control": "max-age=60", "ETag": "\"a1\""], body: avatar)
        }
        let harness = try PipelineHarness(policyJSON: HitPathSupport.policy, fetcher: origin)
        defer { Task { await harness.close() } }
        _ = await harness.get("/avatars/u.jpg")
        harness.clock.advance(10)
        let before = HitPathSupport.compare(harness.service, HitPathSupport.request("/avatars/u.jpg"))
        #expect(before.fast)
        #expect(before.response?.fields["Cache-Control"] == "max-age=60")
        #expect(before.response?.fields["Access-Control-Allow-Origin"] == nil)
        harness.clock.advance(51)
        #expect(harness.service.hitPath.answer(HitPathSupport.request("/avatars/u.jpg")) == nil)
        let validated = await harness.get("/avatars/u.jpg")
        #expect(validated.fields["Cache-Status"] == "mediactl; fwd=stale; fwd-status=304; ttl=120")
        harness.clock.advance(10)
        let after = HitPathSupport.compare(harness.service, HitPathSupport.request("/avatars/u.jpg"))
        #expect(after.fast)
        #expect(after.response?.fields["Cache-Control"] == "max-age=120")
        #expect(after.response?.fields["Access-Control-Allow-Origin"] == "*")
        #expect(after.response?.fields["Cache-Status"] == "mediactl; hit; ttl=110")
        #expect(after.response?.body == avatar)
        #expect(origin.callCount == 2)
    }

    @Test func preparedAnswerIsRebuiltForANewStoreAndGoneAfterAPurge() async throws {
        let first = try Fixtures.bytes("catalog/horse-d29d871c.jpg")
        let second = try Fixtures.bytes("catalog/chelsea-5d40df37.jpg")
        let origin = ScriptedOrigin { _, number in
            OriginResponse(status: 200, fields: ["Cache-Control": "max-age=60", "ETag": "\"\(number)\""],
                           body: number % 2 == 1 ? first : second)
        }
        let harness = try PipelineHarness(policyJSON: HitPathSupport.policy, fetcher: origin)
        defer { Task { await harness.close() } }
        for (round, target) in ["/catalog/n.jpg", "/mcat/n.jpg"].enumerated() {
            _ = await harness.get(target)
            let old = HitPathSupport.compare(harness.service, HitPathSupport.request(target))
            #expect(old.fast)
            #expect(old.response?.body == first)
            #expect(old.response?.fields["ETag"] == "\"\(2 * round + 1)\"")
            let reloaded = await harness.get(target, policy: .reloadIgnoringLocalCacheData)
            #expect(reloaded.body == second)
            let new = HitPathSupport.compare(harness.service, HitPathSupport.request(target))
            #expect(new.fast)
            #expect(new.response?.body == second)
            #expect(new.response?.fields["ETag"] == "\"\(2 * round + 2)\"")
            #expect(new.response?.fields["Content-Length"] == String(second.count))
            #expect(try harness.service.purge(.route(String(target.split(separator: "/")[0]))) == 1)
            let purged = HitPathSupport.compare(harness.service, HitPathSupport.request(target))
            #expect(!purged.fast)
            #expect(purged.response == nil)
        }
    }

    @Test func rememberedTextsFollowTheFreshnessLimitAtTheSameAge() async throws {
        let jpeg = try Fixtures.bytes("catalog/horse-d29d871c.jpg")
        let origin = ScriptedOrigin { _, number in
            number == 1
                ? OriginResponse(status: 200, fields: ["Cache-Control": "max-age=60"], body: jpeg)
                : OriginResponse(status: 200, fields: ["Cache-Control": "max-age=90", "Age": "5"], body: jpeg)
        }
        let harness = try PipelineHarness(policyJSON: HitPathSupport.policy, fetcher: origin)
        defer { Task { await harness.close() } }
        _ = await harness.get("/mcat/t.jpg")
        harness.clock.advance(5)
        let first = HitPathSupport.compare(harness.service, HitPathSupport.request("/mcat/t.jpg"))
        #expect(first.fast)
        #expect(first.response?.fields["Age"] == "5")
        #expect(first.response?.fields["Cache-Status"] == "mediactl; hit; ttl=55")
        _ = await harness.get("/mcat/t.jpg", policy: .reloadIgnoringLocalCacheData)
        let second = HitPathSupport.compare(harness.service, HitPathSupport.request("/mcat/t.jpg"))
        #expect(second.fast)
        #expect(second.response?.fields["Age"] == "5")
        #expect(second.response?.fields["Cache-Status"] == "mediactl; hit; ttl=85")
    }

    @Test func equivalentTargetsShareOneEntry() async throws {
        let harness = try PipelineHarness(policyJSON: HitPathSupport.policy)
        defer { Task { await harness.close() } }
        harness.origin.setReply(.init(fields: ["Cache-Control": "max-age=60"], body: try Fixtures.bytes("catalog/horse-d29d871c.jpg")),
                                for: "http://origin.test/mcat/h.jpg")
        _ = await harness.get("/mcat/h.jpg")
        let plain = HitPathSupport.compare(harness.service, HitPathSupport.request("/mcat/h.jpg"))
        let encoded = HitPathSupport.compare(harness.service, HitPathSupport.request("/mcat/%68.jpg"))
        #expect(plain.fast && encoded.fast)
        #expect(plain.response?.fields == encoded.response?.fields)
        #expect(harness.service.hitRoutes.count == 2)
        #expect(harness.origin.totalCallCount == 1)
    }
}
