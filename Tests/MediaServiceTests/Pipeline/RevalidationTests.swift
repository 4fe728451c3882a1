import HTTPCaching
import MediaCore
@testable import MediaService
import MediaTestSupport
import Testing

/// RFC 9111 §4.3 through the pipeline: conditional requests, 304 updates (C13), 304s that select
/// nothing (C14), and `Vary` variants.
@Suite struct RevalidationTests {
    /// 304 when the request carries `If-None-Match`, else 200 with `body`.
    static func validatingOrigin(body: [UInt8], fields: HTTPFields, notModified: HTTPFields) -> ScriptedOrigin {
        ScriptedOrigin { request, _ in
            request.fields.contains("If-None-Match")
                ? OriginResponse(status: 304, fields: notModified)
                : OriginResponse(status: 200, fields: fields, body: body)
        }
    }

    @Test func staleAvatarIsValidatedWithIfNoneMatchAndUpdatedBy304() async throws {
        let avatar = try Fixtures.bytes("avatars/u1001.jpg")
        let origin = Self.validatingOrigin(body: avatar, fields: ["Cache-Control": "max-age=60", "ETag": "\"a1\""],
                                           notModified: ["ETag": "\"a1\""])
        let harness = try PipelineHarness(fetcher: origin)
        defer { Task { await harness.close() } }
        let first = await harness.get("/avatars/u1001.jpg")
        #expect(first.fields["Cache-Status"] == "mediactl; fwd=uri-miss; fwd-status=200; ttl=60; stored; detail=disk")
        #expect(first.fields["ETag"] == "\"a1\"")
        harness.clock.advance(61)
        let validated = await harness.get("/avatars/u1001.jpg")
        #expect(validated.status == 200)
        #expect(validated.body == avatar)
        #expect(validated.fields["Cache-Status"] == "mediactl; fwd=stale; fwd-status=304; ttl=60")
        #expect(validated.fields["Age"] == "0")
        #expect(validated.fields["Content-Type"] == "image/jpeg")
        #expect(origin.callCount == 2)
        #expect(origin.requests[1].fields["If-None-Match"] == "\"a1\"")
        #expect(origin.requests[0].fields["If-None-Match"] == nil)
        harness.clock.advance(10)
        let hit = await harness.get("/avatars/u1001.jpg")
        #expect(hit.fields["Cache-Status"] == "mediactl; hit; ttl=50")
        #expect(hit.fields["Age"] == "10")
        #expect(origin.callCount == 2)
        let records = try harness.auditRecords()
        #expect(PipelineSupport.events(records) == ["store:tier-storage", "update:not-modified"])
        #expect(records[1].entry.key == records[2].entry.key)
        #expect(records[2].entry.ttl == 60)
    }

    @Test func clientConditionalIsAnsweredByTheCacheAndNotForwarded() async throws {
        let avatar = try Fixtures.bytes("avatars/u1001.jpg")
        let origin = Self.validatingOrigin(body: avatar, fields: ["Cache-Control": "max-age=60", "ETag": "\"a1\""],
                                           notModified: ["ETag": "\"a1\""])
        let harness = try PipelineHarness(fetcher: origin)
        defer { Task { await harness.close() } }
        let miss = await harness.get("/avatars/u1001.jpg", [("If-None-Match", "\"a1\"")])
        #expect(miss.status == 304)
        #expect(miss.body.isEmpty)
        #expect(origin.requests.map { $0.fields["If-None-Match"] } == [nil])
        let other = await harness.get("/avatars/u1001.jpg", [("If-None-Match", "\"other\"")])
        #expect(other.status == 200)
        #expect(other.body == avatar)
        #expect(origin.callCount == 1)
    }

    @Test func clientNoCacheValidatesAFreshResponse() async throws {
        let avatar = try Fixtures.bytes("avatars/u1001.jpg")
        let origin = Self.validatingOrigin(body: avatar, fields: ["Cache-Control": "max-age=60", "ETag": "\"a1\""],
                                           notModified: ["ETag": "\"a1\""])
        let harness = try PipelineHarness(fetcher: origin)
        defer { Task { await harness.close() } }
        _ = await harness.get("/avatars/u1001.jpg")
        harness.clock.advance(10)
        let validated = await harness.get("/avatars/u1001.jpg", [("Cache-Control", "no-cache")])
        #expect(validated.fields["Cache-Status"] == "mediactl; fwd=request; fwd-status=304; ttl=60")
        #expect(validated.body == avatar)
        let pragma = await harness.get("/avatars/u1001.jpg", [("Pragma", "no-cache")])
        #expect(pragma.fields["Cache-Status"] == "mediactl; fwd=request; fwd-status=304; ttl=60")
        // `max-age=0` accepts an age of 0 (RFC 9111 §5.2.1.1): one second later it forbids the copy.
        let sameSecond = await harness.get("/avatars/u1001.jpg", [("Cache-Control", "max-age=0")])
        #expect(sameSecond.fields["Cache-Status"] == "mediactl; hit; ttl=60")
        harness.clock.advance(1)
        let maxAgeZero = await harness.get("/avatars/u1001.jpg", [("Cache-Control", "max-age=0")])
        #expect(maxAgeZero.fields["Cache-Status"] == "mediactl; fwd=request; fwd-status=304; ttl=60")
        let minFresh = await harness.get("/avatars/u1001.jpg", [("Cache-Control", "min-fresh=3600")])
        #expect(minFresh.fields["Cache-Status"] == "mediactl; fwd=request; fwd-status=304; ttl=60")
        #expect(origin.requests.map { $0.fields["If-None-Match"] } == [nil, "\"a1\"", "\"a1\"", "\"a1\"", "\"a1\""])
    }

    // MARK: C13

    @Test(arguments: [("/catalog/", 600), ("/avatars/", 300)])
    func c13NotModifiedDoesNotOverwriteTypeLengthOrBody(mount: String, expectedTTL: Int) async throws {
        let jpeg = try Fixtures.bytes("catalog/hubble-b981f74f.jpg")
        let origin = Self.validatingOrigin(
            body: jpeg,
            fields: ["Cache-Control": "max-age=1", "ETag": "\"v1\"", "Content-Type": "image/jpeg",
                     "Content-Length": String(jpeg.count)],
            notModified: ["ETag": "\"v1\"", "Content-Type": "text/html", "Content-Length": "0", "Cache-Control": "max-age=600"])
        let harness = try PipelineHarness(fetcher: origin)
        defer { Task { await harness.close() } }
        _ = await harness.get(mount + "hubble.jpg")
        harness.clock.advance(2)
        let validated = await harness.get(mount + "hubble.jpg")
        #expect(validated.fields["Cache-Status"] == "mediactl; fwd=stale; fwd-status=304; ttl=\(expectedTTL)")
        harness.clock.advance(100)
        let hit = await harness.get(mount + "hubble.jpg")
        #expect(hit.fields["Cache-Status"] == "mediactl; hit; ttl=\(expectedTTL - 100)")
        for response in [validated, hit] {
            #expect(response.status == 200)
            #expect(response.body == jpeg)
            #expect(response.fields["Content-Type"] == "image/jpeg")
            #expect(response.fields["Content-Length"] == String(jpeg.count))
        }
        #expect(origin.callCount == 2)
        // The stored head keeps the stored representation's fields.
        let runtime = try #require(harness.service.runtimes[mount == "/catalog/" ? "public" : "avatar"])
        let key = try #require(runtime.disk?.inventory().first?.key)
        #expect(runtime.disk?.inventory().first?.head == [])   // the index does not keep the head; the file does
        let stored = try #require(runtime.disk?.entry(for: key)?.metadata)
        let head = try #require(StoredHead.decode(stored.head))
        let fields = HTTPFields(head.fields.map { ($0[0], $0[1]) })
        #expect(fields["Content-Type"] == "image/jpeg")
        #expect(fields["Content-Length"] == String(jpeg.count))
        #expect(fields["Cache-Control"] == "max-age=600")
        #expect(head.policyTTL == Int64(expectedTTL))
        // Past the tier's cap the response is validated again.
        harness.clock.advance(Double(expectedTTL - 100))
        let capped = await harness.get(mount + "hubble.jpg")
        #expect(capped.fields["Cache-Status"] == "mediactl; fwd=stale; fwd-status=304; ttl=\(expectedTTL)")
        #expect(origin.callCount == 3)
    }

    // MARK: C14

    @Test func c14NotModifiedMatchingNothingStoredRefetchesWithoutConditions() async throws {
        let first = try Fixtures.bytes("catalog/rocket-cfc075d1.jpg")
        let second = try Fixtures.bytes("catalog/coins-1fea11f1.jpg")
        let origin = ScriptedOrigin { request, number in
            if request.fields.contains("If-None-Match") { return OriginResponse(status: 304, fields: ["ETag": "\"zz\""]) }
            return OriginResponse(status: 200, fields: ["Cache-Control": "max-age=1", "ETag": number == 1 ? "\"v1\"" : "\"v2\""],
                                  body: number == 1 ? first : second)
        }
        let harness = try PipelineHarness(fetcher: origin)
        defer { Task { await harness.close() } }
        _ = await harness.get("/catalog/rocket.jpg")
        harness.clock.advance(2)
        let refetched = await harness.get("/catalog/rocket.jpg")
        #expect(refetched.status == 200)
        #expect(refetched.body == second)
        #expect(refetched.fields["ETag"] == "\"v2\"")
        #expect(refetched.fields["Cache-Status"] == "mediactl; fwd=stale; fwd-status=200; ttl=1; stored; detail=disk")
        #expect(origin.requests.map { $0.fields["If-None-Match"] } == [nil, "\"v1\"", nil])
        #expect(PipelineSupport.events(try harness.auditRecords()) == ["store:tier-storage", "store:tier-storage"])
    }

    /// Partitioned tiers keep no stale copies (see ``privateCopyIsDroppedAtExpiryNotRevalidated()``), so
    /// the two users' copies are validated while fresh, on request (`Cache-Control: no-cache`).
    @Test func c14NotModifiedFreshensOnlyTheCopyOfThePartitionThatValidated() async throws {
        let origin = ScriptedOrigin { request, _ in
            let user = request.fields["Authorization"] == "Bearer t1" ? "1" : "2"
            if request.fields.contains("If-None-Match") { return OriginResponse(status: 304, fields: ["ETag": "\"a2\""]) }
            return OriginResponse(status: 200, fields: ["Cache-Control": "max-age=60", "ETag": "\"a\(user)\""],
                                  body: PipelineSupport.markedPNG("MARK-U" + user))
        }
        let harness = try PipelineHarness(fetcher: origin)
        defer { Task { await harness.close() } }
        let u1 = [("Authorization", "Bearer t1")], u2 = [("Authorization", "Bearer t2")]
        _ = await harness.get("/receipts/doc.png", u1)
        _ = await harness.get("/receipts/doc.png", u2)
        harness.clock.advance(30)
        let u2Validated = await harness.get("/receipts/doc.png", u2 + [("Cache-Control", "no-cache")])
        #expect(u2Validated.fields["Cache-Status"] == "mediactl; fwd=request; fwd-status=304; ttl=60")
        #expect(u2Validated.body == PipelineSupport.markedPNG("MARK-U2"))
        let u1Hit = await harness.get("/receipts/doc.png", u1)
        #expect(u1Hit.fields["Cache-Status"] == "mediactl; hit; ttl=30")
        #expect(u1Hit.body == PipelineSupport.markedPNG("MARK-U1"))
        // U1's validation gets a 304 for "a2", which selects nothing U1 holds: refetched unconditionally.
        let u1Validated = await harness.get("/receipts/doc.png", u1 + [("Cache-Control", "no-cache")])
        #expect(u1Validated.body == PipelineSupport.markedPNG("MARK-U1"))
        #expect(u1Validated.fields["Cache-Status"] == "mediactl; fwd=request; fwd-status=200; ttl=60; stored; detail=encrypted-disk")
        #expect(origin.requests.map { $0.fields["If-None-Match"] } == [nil, nil, "\"a2\"", "\"a1\"", nil])
        harness.clock.advance(40)
        let u2Hit = await harness.get("/receipts/doc.png", u2)
        #expect(u2Hit.fields["Cache-Status"] == "mediactl; hit; ttl=20")
        #expect(u2Hit.body == PipelineSupport.markedPNG("MARK-U2"))
        #expect(PipelineSupport.events(try harness.auditRecords()) == [
            "store:tier-storage", "store:tier-storage", "update:not-modified", "store:tier-storage",
        ])
    }

    /// By design, entries of partitioned tiers are kept only for their time to live (no stale
    /// retention for revalidation, unlike shared tiers): an expired private copy is removed, audited
    /// `expire`, and the next request is a plain miss.
    @Test func privateCopyIsDroppedAtExpiryNotRevalidated() async throws {
        let origin = ScriptedOrigin { request, _ in
            OriginResponse(status: 200, fields: ["Cache-Control": "max-age=60", "ETag": "\"a1\""],
                           body: PipelineSupport.markedPNG("MARK-U1"))
        }
        let harness = try PipelineHarness(fetcher: origin)
        defer { Task { await harness.close() } }
        let u1 = [("Authorization", "Bearer t1")]
        _ = await harness.get("/receipts/doc.png", u1)
        harness.clock.advance(61)
        let again = await harness.get("/receipts/doc.png", u1)
        #expect(again.fields["Cache-Status"] == "mediactl; fwd=uri-miss; fwd-status=200; ttl=60; stored; detail=encrypted-disk")
        #expect(origin.requests.map { $0.fields["If-None-Match"] } == [nil, nil])
        #expect(PipelineSupport.events(try harness.auditRecords()) == ["store:tier-storage", "expire:expired", "store:tier-storage"])
    }

    /// RFC 9111 §4.3.4, RFC 9110 §13.1: a 304 carrying no validator answers the conditional request the cache
    /// generated for its one stored response, so that response is updated; the origin sees no second request.
    @Test func notModifiedWithoutAValidatorUpdatesTheOneResponseAskedAbout() async throws {
        let jpeg = try Fixtures.bytes("catalog/rocket-cfc075d1.jpg")
        let origin = Self.validatingOrigin(body: jpeg, fields: ["Cache-Control": "max-age=1", "ETag": "\"r1\""], notModified: [:])
        let harness = try PipelineHarness(fetcher: origin)
        defer { Task { await harness.close() } }
        _ = await harness.get("/catalog/rocket.jpg")
        harness.clock.advance(2)
        let revalidated = await harness.get("/catalog/rocket.jpg")
        #expect(revalidated.fields["Cache-Status"] == "mediactl; fwd=stale; fwd-status=304; ttl=1")
        #expect(revalidated.body == jpeg)
        #expect(origin.requests.map { $0.fields["If-None-Match"] } == [nil, "\"r1\""])
        #expect(PipelineSupport.events(try harness.auditRecords()) == ["store:tier-storage", "update:not-modified"])
    }

    // MARK: Vary

    /// Hardening item 6: a tier that does not forward `Accept` never lets the origin see it, so an answer with
    /// `Vary: Accept` cannot differ by it (RFC 9111 §4.1 compares what was sent): one stored response for all.
    @Test func varyOnAFieldTheTierDoesNotForwardStoresOneResponse() async throws {
        let origin = ScriptedOrigin { request, _ in
            let type = request.fields["Accept"] ?? "none"
            return OriginResponse(status: 200, fields: ["Cache-Control": "max-age=600", "Vary": "Accept"],
                                  body: PipelineSupport.markedPNG("MARK-" + type))
        }
        let harness = try PipelineHarness(fetcher: origin)
        defer { Task { await harness.close() } }
        let webp = await harness.get("/catalog/v.png", [("Accept", "image/webp")])
        let avif = await harness.get("/catalog/v.png", [("Accept", "image/avif")])
        #expect(webp.fields["Cache-Status"] == "mediactl; fwd=uri-miss; fwd-status=200; ttl=600; stored; detail=disk")
        #expect(avif.fields["Cache-Status"] == "mediactl; hit; ttl=600")
        #expect([webp.body, avif.body] == [PipelineSupport.markedPNG("MARK-none"), PipelineSupport.markedPNG("MARK-none")])
        #expect(origin.callCount == 1)
    }

    @Test func varyAcceptStoresTwoVariants() async throws {
        let origin = ScriptedOrigin { request, _ in
            let type = request.fields["Accept"] ?? "none"
            return OriginResponse(status: 200, fields: ["Cache-Control": "max-age=600", "Vary": "Accept"],
                                  body: PipelineSupport.markedPNG("MARK-" + type))
        }
        let harness = try PipelineHarness(policyJSON: PipelineHarness.defaultPolicy(publicForwards: ["Accept"]), fetcher: origin)
        defer { Task { await harness.close() } }
        let webp = await harness.get("/catalog/v.png", [("Accept", "image/webp")])
        let avif = await harness.get("/catalog/v.png", [("Accept", "image/avif")])
        #expect(webp.fields["Cache-Status"] == "mediactl; fwd=uri-miss; fwd-status=200; ttl=600; stored; detail=disk")
        #expect(avif.fields["Cache-Status"] == "mediactl; fwd=vary-miss; fwd-status=200; ttl=600; stored; detail=disk")
        harness.clock.advance(1)
        let webpHit = await harness.get("/catalog/v.png", [("Accept", "image/webp")])
        let avifHit = await harness.get("/catalog/v.png", [("Accept", "image/avif")])
        #expect(webpHit.body == PipelineSupport.markedPNG("MARK-image/webp"))
        #expect(avifHit.body == PipelineSupport.markedPNG("MARK-image/avif"))
        #expect([webpHit, avifHit].map { $0.fields["Cache-Status"] } == ["mediactl; hit; ttl=599", "mediactl; hit; ttl=599"])
        #expect(origin.callCount == 2)
        let records = try harness.auditRecords()
        #expect(PipelineSupport.events(records) == ["store:tier-storage", "store:tier-storage"])
        #expect(records[1].entry.key != records[2].entry.key)
        #expect(harness.filesUnderState().filter { $0.path.hasPrefix("disk/public/") }.count == 2)
    }

    /// The cache asks every origin for `Accept-Encoding: identity` (it validates and stores the image's
    /// own bytes; RFC 9110 §12.5.3), so `Vary: Accept-Encoding` selects one stored response for every
    /// client: identity is acceptable to all of them.
    @Test func varyAcceptEncodingIsOneVariantBecauseTheCacheAlwaysAsksForIdentity() async throws {
        let origin = ScriptedOrigin { request, _ in
            let coding = request.fields["Accept-Encoding"] ?? "none"
            return OriginResponse(status: 200, fields: ["Cache-Control": "max-age=600", "Vary": "Accept-Encoding"],
                                  body: PipelineSupport.markedPNG("MARK-" + coding))
        }
        let harness = try PipelineHarness(fetcher: origin)
        defer { Task { await harness.close() } }
        let gzip = await harness.get("/catalog/v.png", [("Accept-Encoding", "gzip")])
        let br = await harness.get("/catalog/v.png", [("Accept-Encoding", "br")])
        let none = await harness.get("/catalog/v.png")
        #expect(gzip.fields["Cache-Status"] == "mediactl; fwd=uri-miss; fwd-status=200; ttl=600; stored; detail=disk")
        #expect([br, none].map { $0.fields["Cache-Status"] } == ["mediactl; hit; ttl=600", "mediactl; hit; ttl=600"])
        #expect([gzip, br, none].allSatisfy { $0.body == PipelineSupport.markedPNG("MARK-identity") })
        #expect(gzip.fields["Vary"] == "Accept-Encoding")
        #expect(origin.requests.map { $0.fields.values(for: "Accept-Encoding") } == [["identity"]])
        #expect(PipelineSupport.events(try harness.auditRecords()) == ["store:tier-storage"])
    }
}
