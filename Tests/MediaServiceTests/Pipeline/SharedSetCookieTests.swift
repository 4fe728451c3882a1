import HTTPCaching
@testable import MediaService
import MediaTestSupport
import Testing

/// C08 on generic (conformance-mode) tiers: a shared cache never replays one client's origin
/// `Set-Cookie` to another. The answer carrying it goes to its own client only and is not stored
/// (audit `skip`, reason `set-cookie-in-shared-cache`), as nginx's `proxy_cache` does by default.
@Suite struct SharedSetCookieTests {
    static func policy(cache: String) -> String {
        """
        { "tiers": { "http": { "storage": "memory", "cache": "\(cache)", "credentials": "forward", "contentTypes": ["*/*"] } },
          "routes": [ { "name": "all", "mount": "/", "origin": "http://origin.test/", "tier": "http", "methods": "all" } ] }
        """
    }

    @Test func aSharedGenericTierDoesNotStoreSetCookie() async throws {
        let harness = try PipelineHarness(policyJSON: Self.policy(cache: "shared"))
        defer { Task { await harness.close() } }
        harness.origin.setReply(.init(fields: ["Cache-Control": "max-age=60", "Set-Cookie": "sid=S1"], body: Array("MARK".utf8)),
                                for: "http://origin.test/login")
        let first = await harness.get("/login")
        #expect(first.status == 200)
        #expect(first.fields["Set-Cookie"] == "sid=S1")
        #expect(first.fields["Cache-Status"] == "mediactl; fwd=uri-miss; fwd-status=200; detail=set-cookie-in-shared-cache")
        let second = await harness.get("/login")
        #expect(second.fields["Cache-Status"] == "mediactl; fwd=uri-miss; fwd-status=200; detail=set-cookie-in-shared-cache")
        #expect(harness.origin.totalCallCount == 2)
        #expect(PipelineSupport.events(try harness.auditRecords()) == ["skip:set-cookie-in-shared-cache", "skip:set-cookie-in-shared-cache"])
    }

    @Test func withoutSetCookieTheAnswerIsStoredAsBefore() async throws {
        let harness = try PipelineHarness(policyJSON: Self.policy(cache: "shared"))
        defer { Task { await harness.close() } }
        harness.origin.setReply(.init(fields: ["Cache-Control": "max-age=60"], body: Array("MARK".utf8)),
                                for: "http://origin.test/page")
        _ = await harness.get("/page")
        let second = await harness.get("/page")
        #expect(second.fields["Cache-Status"] == "mediactl; hit; ttl=60")
        #expect(harness.origin.totalCallCount == 1)
    }
}

extension SharedSetCookieTests {
    /// RFC 9111 §5.2.2.7 / §5.2.2.4: a qualified directive lets the cache store the answer without the field.
    @Test(arguments: ["private=\"Set-Cookie\"", "no-cache=\"Set-Cookie\""])
    func aQualifiedDirectiveStoresItWithoutTheCookie(directive: String) async throws {
        let harness = try PipelineHarness(policyJSON: Self.policy(cache: "shared"))
        defer { Task { await harness.close() } }
        harness.origin.setReply(.init(fields: ["Cache-Control": "max-age=60, " + directive, "Set-Cookie": "sid=S1"],
                                      body: Array("MARK".utf8)), for: "http://origin.test/login")
        _ = await harness.get("/login")
        let second = await harness.get("/login")
        #expect(second.fields["Cache-Status"]?.hasPrefix("mediactl; hit") == true)
        #expect(second.fields["Set-Cookie"] == nil)
    }
}

extension SharedSetCookieTests {
    /// A 304's `Set-Cookie` is not merged into a shared stored response (RFC 9111 §3.2 updates only
    /// fields the cache stores): later hits never replay it.
    @Test func aNotModifiedSetCookieIsNotMergedIntoTheStoredResponse() async throws {
        let origin = ScriptedOrigin { request, _ in
            if request.fields["If-None-Match"] == "\"v1\"" {
                return OriginResponse(status: 304, fields: ["ETag": "\"v1\"", "Cache-Control": "max-age=60", "Set-Cookie": "sid=S304"])
            }
            return OriginResponse(status: 200, fields: ["ETag": "\"v1\"", "Cache-Control": "max-age=1"], body: Array("MARK".utf8))
        }
        let harness = try PipelineHarness(policyJSON: Self.policy(cache: "shared"), fetcher: origin)
        defer { Task { await harness.close() } }
        _ = await harness.get("/page")
        harness.clock.advance(5)
        let revalidated = await harness.get("/page")
        #expect(revalidated.fields["Cache-Status"] == "mediactl; fwd=stale; fwd-status=304; ttl=60")
        let hit = await harness.get("/page")
        #expect(hit.fields["Cache-Status"] == "mediactl; hit; ttl=60")
        #expect(hit.fields["Set-Cookie"] == nil)
        #expect(revalidated.fields["Set-Cookie"] == nil)
    }
}
