import HTTPCaching
import MediaCore
@testable import MediaService
import MediaTestSupport
import Testing

/// The memory-hit fast path against the full path, request by request: plain `GET`/`HEAD` are served
/// fast; conditionals, ranges, request `Cache-Control`, credentials and bodies take the full path;
/// either way the answer is the same.
@Suite struct HitPathRequestTests {
    static let origin: HTTPFields = [
        "Cache-Control": "max-age=60", "ETag": "\"h\"", "Last-Modified": "Sun, 06 Nov 1994 08:49:37 GMT",
        "Content-Type": "image/jpeg", "Access-Control-Allow-Origin": "*", "X-Internal": "secret",
    ]

    private func primed(_ target: String = "/catalog/h.jpg") async throws -> (PipelineHarness, [UInt8]) {
        let harness = try PipelineHarness(policyJSON: HitPathSupport.policy)
        let jpeg = try Fixtures.bytes("catalog/horse-d29d871c.jpg")
        let route = target.split(separator: "/")[0]
        harness.origin.setReply(.init(fields: Self.origin, body: jpeg), for: "http://origin.test/\(route)/h.jpg")
        let miss = await harness.get(target)
        #expect(miss.status == 200)
        harness.clock.advance(7)
        return (harness, jpeg)
    }

    @Test(arguments: ["/catalog/h.jpg", "/mcat/h.jpg"])
    func plainGetAndHeadAreServedFast(target: String) async throws {
        let (harness, jpeg) = try await primed(target)
        defer { Task { await harness.close() } }
        let service = harness.service
        let get = HitPathSupport.compare(service, HitPathSupport.request(target))
        #expect(get.fast)
        let response = try #require(get.response)
        #expect(response.status == 200)
        #expect(response.body == jpeg)
        #expect(response.fields.fields.map(\.name) == [
            "ETag", "Last-Modified", "Content-Type", "Access-Control-Allow-Origin", "Age", "Cache-Control",
            "X-Content-Type-Options", "Cache-Status", "Accept-Ranges", "Content-Length",
        ])
        #expect(response.fields["Age"] == "7")
        #expect(response.fields["Cache-Status"] == "mediactl; hit; ttl=53")
        #expect(response.fields["Content-Length"] == String(jpeg.count))
        #expect(response.outcome == ServiceOutcome(route: String(target.split(separator: "/")[0]),
                                                   tier: target.hasPrefix("/mcat/") ? "public-mem" : "public",
                                                   cacheStatus: "mediactl; hit; ttl=53", storage: .hit))
        let head = HitPathSupport.compare(service, HitPathSupport.request(target, method: "HEAD"))
        #expect(head.fast)
        #expect(head.response?.body == [])
        #expect(head.response?.fields == response.fields)
        let browser = HitPathSupport.compare(service, HitPathSupport.request(target, [
            ("Host", "media.example"), ("User-Agent", "t/1"), ("Accept", "image/avif,image/*"),
            ("Accept-Encoding", "gzip"), ("Connection", "keep-alive"), ("X-Forwarded-For", "10.0.0.1"),
        ]))
        #expect(browser.fast)
        #expect(browser.response?.fields == response.fields)
        let viaHandle = await HitPathSupport.compareAsync(service, HitPathSupport.request(target))
        #expect(viaHandle.fields == response.fields)
        let headViaHandle = await HitPathSupport.compareAsync(service, HitPathSupport.request(target, method: "HEAD"))
        #expect(headViaHandle.body == [])
        harness.clock.advance(1)
        #expect(HitPathSupport.compare(service, HitPathSupport.request(target)).response?.fields["Age"] == "8")
        #expect(harness.origin.totalCallCount == 1)
    }

    @Test(arguments: [
        [("If-None-Match", "\"h\"")], [("if-none-match", "W/\"h\"")], [("IF-NONE-MATCH", "*")],
        [("If-None-Match", "\"other\"")], [("If-Modified-Since", "Sun, 06 Nov 1994 08:49:37 GMT")],
        [("If-Modified-Since", "Sat, 05 Nov 1994 08:49:37 GMT")], [("If-Match", "\"h\"")],
        [("If-Unmodified-Since", "Sun, 06 Nov 1994 08:49:37 GMT")], [("If-Range", "\"h\"")], [("Range", "bytes=0-9")],
    ])
    func conditionalsAndRangesTakeTheFullPath(fields: [(String, String)]) async throws {
        let (harness, _) = try await primed()
        defer { Task { await harness.close() } }
        let result = HitPathSupport.compare(harness.service, HitPathSupport.request("/catalog/h.jpg", fields))
        #expect(!result.fast)
        let response = try #require(result.response)
        let notModified = fields[0].0.lowercased() == "if-none-match" && fields[0].1 != "\"other\""
            || fields[0].1 == "Sun, 06 Nov 1994 08:49:37 GMT" && fields[0].0 == "If-Modified-Since"
        // A GET with Range gets 206 from the stored image; HEAD ignores Range (RFC 9110 §14.2).
        let ranged = fields[0].0 == "Range"
        #expect(response.status == (notModified ? 304 : ranged ? 206 : 200))
        let head = HitPathSupport.compare(harness.service, HitPathSupport.request("/catalog/h.jpg", fields, method: "HEAD"))
        #expect(!head.fast)
        #expect(head.response?.status == (ranged ? 200 : response.status))
    }

    @Test(arguments: [
        ([("Cache-Control", "no-cache")], false), ([("Cache-Control", "max-age=0")], false),
        ([("cache-control", "max-age=3")], false), ([("Cache-Control", "max-age=30")], true),
        ([("Cache-Control", "max-stale")], true), ([("Cache-Control", "max-stale=5, min-fresh=10")], true),
        ([("Cache-Control", "min-fresh=60")], false), ([("Pragma", "no-cache")], false), ([("PRAGMA", "x")], true),
    ])
    func requestCacheControlTakesTheFullPath(fields: [(String, String)], answered: Bool) async throws {
        let (harness, _) = try await primed()
        defer { Task { await harness.close() } }
        let result = HitPathSupport.compare(harness.service, HitPathSupport.request("/catalog/h.jpg", fields))
        #expect(!result.fast)
        #expect((result.response != nil) == answered)
        if answered { #expect(result.response?.fields["Cache-Status"] == "mediactl; hit; ttl=53") }
    }

    @Test(arguments: RequestCachePolicy.allCases)
    func cachePoliciesOtherThanTheProtocolsTakeTheFullPath(policy: RequestCachePolicy) async throws {
        let (harness, _) = try await primed()
        defer { Task { await harness.close() } }
        let result = HitPathSupport.compare(harness.service, HitPathSupport.request("/catalog/h.jpg", policy: policy))
        #expect(result.fast == (policy == .useProtocolCachePolicy))
        #expect((result.response != nil) == (policy != .reloadIgnoringLocalCacheData))
    }

    @Test func credentialsAndBodiesTakeTheFullPath() async throws {
        let (harness, jpeg) = try await primed()
        defer { Task { await harness.close() } }
        let service = harness.service
        // The public tier strips credentials: the full path answers as for a plain request.
        for fields in [[("Authorization", "Bearer t1")], [("Cookie", "s=1")]] {
            let result = HitPathSupport.compare(service, HitPathSupport.request("/catalog/h.jpg", fields))
            #expect(!result.fast)
            #expect(result.response?.body == jpeg)
        }
        let withBody = HitPathSupport.compare(service, ServiceRequest(target: "/catalog/h.jpg", body: [1]))
        #expect(!withBody.fast)
        #expect(withBody.response?.status == 400)
        for fields in [[("Content-Length", "5")], [("Transfer-Encoding", "chunked")]] {
            let result = HitPathSupport.compare(service, HitPathSupport.request("/catalog/h.jpg", fields))
            #expect(!result.fast)
            #expect(result.response.flatMap(PipelineSupport.problemCode) == "body-not-allowed")
        }
        let zeroLength = HitPathSupport.compare(service, HitPathSupport.request("/catalog/h.jpg", [("Content-Length", "0")]))
        #expect(!zeroLength.fast)
        #expect(zeroLength.response?.status == 200)
        for method in ["POST", "get", "OPTIONS"] {
            let result = HitPathSupport.compare(service, HitPathSupport.request("/catalog/h.jpg", method: method))
            #expect(!result.fast)
            #expect(result.response?.status == 405)
        }
    }

    @Test func refusalsAreAnsweredByTheFullPathAndNeverCached() async throws {
        let (harness, _) = try await primed()
        defer { Task { await harness.close() } }
        let service = harness.service
        let before = service.hitRoutes.count
        for (target, code) in [("/catalog/../x", "dot-segment"), ("/catalog//x", "empty-segment"),
                               ("/catalog/%2Fx", "encoded-slash"), ("/nowhere/x", "no-route"), ("catalog/x", "not-origin-form"),
                               ("/catalog/a b", "invalid-character"), ("/receipts/r.png", "credentials-required")] {
            let result = HitPathSupport.compare(service, HitPathSupport.request(target))
            #expect(!result.fast)
            #expect(result.response.flatMap(PipelineSupport.problemCode) == code)
        }
        #expect(service.hitRoutes.count == before)
        // `/_mediactl/` is the endpoints' (the admin listener's), never the media pipeline's.
        #expect(service.endpoint(HitPathSupport.request("/_mediactl/health")).status == 200)
    }

    @Test func admissionCacheIsBoundedAndResolvesEachTargetOnce() throws {
        let harness = try PipelineHarness(policyJSON: HitPathSupport.policy)
        defer { Task { await harness.close() } }
        let service = harness.service
        var resolved: RouteMatch?
        for index in 0..<HitRouteCache.capacity {
            let target = "/catalog/\(index).jpg"
            #expect(service.hitPath.answer(ServiceRequest(target: target), resolved: &resolved) == nil)
        }
        #expect(service.hitRoutes.count == HitRouteCache.capacity)
        resolved = nil
        let known = try #require(service.hitPath.slot(for: "/catalog/0.jpg", resolved: &resolved))
        #expect(!known.isNew)
        #expect(resolved == nil)
        #expect(service.hitRoutes.count == HitRouteCache.capacity)
        #expect(service.hitPath.answer(ServiceRequest(target: "/catalog/new.jpg?a=%41"), resolved: &resolved) == nil)
        #expect(service.hitRoutes.count == 1)
        #expect(resolved == (try service.hitRoutes.snapshot.router.resolve("/catalog/new.jpg?a=%41")))
        let slot = try #require(service.hitPath.slot(for: "/catalog/new.jpg?a=%41", resolved: &resolved))
        #expect(!slot.isNew)
        #expect(slot.slot.route.upstreamURL == "http://origin.test/catalog/new.jpg?a=%41")
        #expect(slot.slot.route.groupKey == "public\u{1D}http://origin.test/catalog/new.jpg?a=%41\u{1F}-")
        // A bearer tier's target is admitted too (each request's token is checked when it is answered), and the match
        // is handed to `admit`.
        resolved = nil
        let receipts = try #require(service.hitPath.slot(for: "/receipts/r.png", resolved: &resolved))
        #expect(receipts.isNew)
        #expect(receipts.slot.route.requiresBearer)
        #expect(resolved?.route.name == "receipts")
        #expect(service.hitPath.slot(for: "/catalog/../x", resolved: &resolved) == nil)
        #expect(service.hitRoutes.count == 1)
    }
}
