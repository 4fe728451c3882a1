import HTTPCaching
import MediaCore
import MediaPolicy
@testable import MediaService
import MediaTestSupport
import Testing

/// Steps 6–8 through the pipeline: RFC 9111 storability (`no-store`, `Vary: *`, upstream `Age`),
/// user hooks that narrow, transport limits, and HEAD.
@Suite struct StorageDecisionTests {
    struct NarrowTo: StorageHook {
        var storage: StorageClass?
        var ttl = 10
        var name: String { "narrow" }
        func willStore(_ proposal: StorageProposal, proposed: StorageChoice) -> StorageChoice? {
            storage.map { StorageChoice(storage: $0, ttl: ttl) }
        }
    }

    static let jpegURL = "http://origin.test/catalog/coins.jpg"

    func harness(_ cacheControl: [String: String], hooks: [any StorageHook] = []) throws -> (PipelineHarness, [UInt8]) {
        let harness = try PipelineHarness(hooks: hooks)
        let jpeg = try Fixtures.bytes("catalog/coins-1fea11f1.jpg")
        harness.origin.setReply(.init(fields: HTTPFields(cacheControl.map { ($0.key, $0.value) }), body: jpeg), for: Self.jpegURL)
        return (harness, jpeg)
    }

    @Test func hookNarrowingToMemoryKeepsTheFileOffDisk() async throws {
        let (harness, jpeg) = try harness(["Cache-Control": "max-age=600"], hooks: [NarrowTo(storage: .memory, ttl: 10)])
        defer { Task { await harness.close() } }
        let first = await harness.get("/catalog/coins.jpg")
        #expect(first.fields["Cache-Status"] == "mediactl; fwd=uri-miss; fwd-status=200; ttl=10; stored; detail=memory")
        #expect(first.outcome.reason == "hook-narrowed:memory")
        harness.clock.advance(9)
        let hit = await harness.get("/catalog/coins.jpg")
        #expect(hit.fields["Cache-Status"] == "mediactl; hit; ttl=1")
        #expect(hit.body == jpeg)
        harness.clock.advance(1)
        let validated = await harness.get("/catalog/coins.jpg")
        #expect(validated.fields["Cache-Status"] == "mediactl; fwd=stale; fwd-status=200; ttl=10; stored; detail=memory")
        #expect(harness.origin.callCount(for: Self.jpegURL) == 2)
        #expect(harness.responseFilesUnderState().isEmpty)
        let records = try harness.auditRecords()
        #expect(PipelineSupport.events(records) == ["store:hook-narrowed:memory", "store:hook-narrowed:memory"])
        #expect(records.filter { $0.entry.event.rawValue == "store" }.map { $0.entry.storage?.rawValue } == ["memory", "memory"])
    }

    @Test func hookVetoStoresNothing() async throws {
        let (harness, jpeg) = try harness(["Cache-Control": "max-age=600"], hooks: [NarrowTo(storage: nil)])
        defer { Task { await harness.close() } }
        let first = await harness.get("/catalog/coins.jpg")
        #expect(first.body == jpeg)
        #expect(first.fields["Cache-Status"] == "mediactl; fwd=uri-miss; fwd-status=200; detail=hook-narrowed:none")
        _ = await harness.get("/catalog/coins.jpg")
        #expect(harness.origin.callCount(for: Self.jpegURL) == 2)
        #expect(PipelineSupport.events(try harness.auditRecords()) == ["skip:hook-narrowed:none", "skip:hook-narrowed:none"])
    }

    @Test func hookCannotWiden() async throws {
        let (harness, _) = try harness(["Cache-Control": "max-age=60"], hooks: [NarrowTo(storage: .disk, ttl: 99_999)])
        defer { Task { await harness.close() } }
        let first = await harness.get("/catalog/coins.jpg")
        #expect(first.fields["Cache-Status"] == "mediactl; fwd=uri-miss; fwd-status=200; ttl=60; stored; detail=disk")
        #expect(try harness.auditRecords().last?.entry.ttl == 60)
    }

    @Test(arguments: ["Accept-Encoding, *", "*"])
    func c12VaryStarIsNeverWritten(vary: String) async throws {
        let (harness, jpeg) = try harness(["Cache-Control": "max-age=600", "Vary": vary])
        defer { Task { await harness.close() } }
        let first = await harness.get("/catalog/coins.jpg")
        #expect(first.body == jpeg)
        #expect(first.fields["Cache-Status"] == "mediactl; fwd=uri-miss; fwd-status=200; detail=vary-star")
        #expect(harness.responseFilesUnderState().isEmpty)
        #expect(PipelineSupport.events(try harness.auditRecords()) == ["skip:vary-star"])
    }

    @Test func responseNoStoreIsNotStored() async throws {
        let (harness, _) = try harness(["Cache-Control": "max-age=600, no-store"])
        defer { Task { await harness.close() } }
        let first = await harness.get("/catalog/coins.jpg")
        #expect(first.fields["Cache-Status"] == "mediactl; fwd=uri-miss; fwd-status=200; detail=response-no-store")
        #expect(first.fields["Cache-Control"] == "max-age=600, no-store")
        #expect(PipelineSupport.events(try harness.auditRecords()) == ["skip:response-no-store"])
    }

    @Test func requestNoStoreIsNotStored() async throws {
        let (harness, _) = try harness(["Cache-Control": "max-age=600"])
        defer { Task { await harness.close() } }
        let first = await harness.get("/catalog/coins.jpg", [("Cache-Control", "no-store")])
        #expect(first.fields["Cache-Status"] == "mediactl; fwd=uri-miss; fwd-status=200; detail=request-no-store")
        #expect(first.fields["Cache-Control"] == "public, max-age=31536000, immutable")
        #expect(PipelineSupport.events(try harness.auditRecords()) == ["skip:request-no-store"])
    }

    /// C10: the upstream `Age` counts against the lifetime; the policy cap must not turn the
    /// remaining second into an immediate validation.
    @Test func c10UpstreamAgeLeavesOnlyTheRemainingFreshness() async throws {
        let (harness, jpeg) = try harness(["Cache-Control": "max-age=60", "Age": "59"])
        defer { Task { await harness.close() } }
        let first = await harness.get("/catalog/coins.jpg")
        #expect(first.fields["Cache-Status"] == "mediactl; fwd=uri-miss; fwd-status=200; ttl=1; stored; detail=disk")
        #expect(first.fields["Age"] == "59")
        let hit = await harness.get("/catalog/coins.jpg")
        #expect(hit.fields["Cache-Status"] == "mediactl; hit; ttl=1")
        #expect(hit.fields["Age"] == "59")
        #expect(hit.body == jpeg)
        harness.clock.advance(5)
        let stale = await harness.get("/catalog/coins.jpg")
        #expect(stale.fields["Cache-Status"] == "mediactl; fwd=stale; fwd-status=200; ttl=1; stored; detail=disk")
        #expect(harness.origin.callCount(for: Self.jpegURL) == 2)
    }

    @Test func c10HugeUpstreamAgeIsStaleWithoutOverflow() async throws {
        let (harness, _) = try harness(["Cache-Control": "max-age=60", "Age": "99999999999"])
        defer { Task { await harness.close() } }
        let first = await harness.get("/catalog/coins.jpg")
        #expect(first.status == 200)
        // Older than the tier's cap already: not stored at all (the cap counts the age, RFC 9111 §4.2.3).
        #expect(first.fields["Cache-Status"] == "mediactl; fwd=uri-miss; fwd-status=200; detail=age-over-max-ttl")
        _ = await harness.get("/catalog/coins.jpg")
        #expect(harness.origin.callCount(for: Self.jpegURL) == 2)
    }

    /// Hardening item 10: an origin `Date` in 1970 with `Expires` in 9999 is fresh by RFC 9111 (lifetime Expires − Date),
    /// but its apparent age (now − Date) counts against the tier's cap exactly as an `Age` field does: never stored,
    /// never served with `Age: 1800000000` as fresh.
    @Test func apparentAgeFromDateCountsAgainstMaxTTL() async throws {
        let (harness, _) = try harness(["Date": "Thu, 01 Jan 1970 00:00:00 GMT", "Expires": "Fri, 31 Dec 9999 23:59:59 GMT"])
        defer { Task { await harness.close() } }
        let first = await harness.get("/catalog/coins.jpg")
        #expect(first.status == 200)
        #expect(first.fields["Cache-Status"] == "mediactl; fwd=uri-miss; fwd-status=200; detail=age-over-max-ttl")
        #expect(first.outcome.reason == "age-over-max-ttl")
        let second = await harness.get("/catalog/coins.jpg")
        #expect(second.fields["Cache-Status"]?.hasPrefix("mediactl; fwd=uri-miss") == true)
        #expect(harness.origin.callCount(for: Self.jpegURL) == 2)
        #expect(PipelineSupport.events(try harness.auditRecords()) == ["skip:age-over-max-ttl", "skip:age-over-max-ttl"])
    }

    /// A `Date` 100 s old on an avatar (`unversionedMaxTTL` 300): kept for the 200 s the cap has left.
    @Test func apparentAgeShortensTheTimeTheCapLeaves() async throws {
        let harness = try PipelineHarness()
        defer { Task { await harness.close() } }
        let url = "http://origin.test/avatars/u.jpg"
        let date = HTTPDate.format(Int64(harness.clock.now) - 100)
        harness.origin.setReply(.init(fields: HTTPFields([("Date", date), ("Cache-Control", "max-age=3600")]),
                                      body: try Fixtures.bytes("catalog/coins-1fea11f1.jpg")), for: url)
        let first = await harness.get("/avatars/u.jpg")
        #expect(first.fields["Cache-Status"] == "mediactl; fwd=uri-miss; fwd-status=200; ttl=200; stored; detail=disk")
        harness.clock.advance(199)
        #expect(await harness.get("/avatars/u.jpg").fields["Cache-Status"] == "mediactl; hit; ttl=1")
        harness.clock.advance(1)
        #expect(await harness.get("/avatars/u.jpg").fields["Cache-Status"]?.hasPrefix("mediactl; fwd=stale") == true)
    }

    @Test func bodyOverMaxObjectBytesIsRefused() async throws {
        let policy = PipelineHarness.defaultPolicy.replacingOccurrences(of: "\"maxObjectBytes\": 10485760",
                                                                       with: "\"maxObjectBytes\": 10000")
        let harness = try PipelineHarness(policyJSON: policy)
        defer { Task { await harness.close() } }
        harness.origin.setReply(.init(fields: ["Cache-Control": "max-age=600"], body: try Fixtures.bytes("catalog/coins-1fea11f1.jpg")),
                                for: Self.jpegURL)
        let response = await harness.get("/catalog/coins.jpg")
        #expect(response.status == 502)
        #expect(PipelineSupport.problemCode(response) == "over-size-limit")
        #expect(PipelineSupport.problemMembers(response)?["detail"] as? String
                == "the origin's answer exceeds maxObjectBytes (10000 bytes)")
        #expect(PipelineSupport.events(try harness.auditRecords()) == ["skip:over-size-limit"])
    }

    @Test func originTimeoutIsA504Problem() async throws {
        let harness = try PipelineHarness()
        defer { Task { await harness.close() } }
        harness.origin.setReply(.init(error: OriginError(.timeout, "no answer in 15 s")), for: Self.jpegURL)
        let response = await harness.get("/catalog/coins.jpg")
        #expect(response.status == 504)
        #expect(PipelineSupport.problemCode(response) == "origin-timeout")
        #expect(PipelineSupport.problemMembers(response)?["detail"] as? String
                == "the origin timed out: no answer in 15 s (the tier's originTimeout is 15 s)")
        #expect(Responder.seconds(0.5) == "0.5")
    }

    @Test func headIsAnsweredWithoutABodyButWithItsLength() async throws {
        let (harness, jpeg) = try harness(["Cache-Control": "max-age=600"])
        defer { Task { await harness.close() } }
        let miss = await harness.get("/catalog/coins.jpg", method: "HEAD")
        #expect(miss.status == 200)
        #expect(miss.body.isEmpty)
        #expect(miss.fields["Content-Length"] == String(jpeg.count))
        #expect(miss.fields["Content-Type"] == "image/jpeg")
        let hit = await harness.get("/catalog/coins.jpg", method: "HEAD")
        #expect(hit.body.isEmpty)
        #expect(hit.fields["Cache-Status"] == "mediactl; hit; ttl=600")
        let get = await harness.get("/catalog/coins.jpg")
        #expect(get.body == jpeg)
        #expect(harness.origin.requests.map(\.method) == ["GET"])
    }

    // MARK: C09, C11 through the pipeline (clock: 1,800,000,000)

    static let now: Int64 = 1_800_000_000

    @Test func c11HeuristicFreshnessIsTenPercentOfTheLastModifiedAgeUnderTheCap() async throws {
        let tenDays: Int64 = 864_000
        let origin = ScriptedOrigin { _, _ in
            OriginResponse(status: 200, fields: ["Date": HTTPDate.format(Self.now), "Last-Modified": HTTPDate.format(Self.now - tenDays)],
                           body: PipelineSupport.markedPNG("MARK-heuristic"))
        }
        let harness = try PipelineHarness(fetcher: origin)
        defer { Task { await harness.close() } }
        let catalog = await harness.get("/catalog/h.png")
        #expect(catalog.fields["Cache-Status"] == "mediactl; fwd=uri-miss; fwd-status=200; ttl=86400; stored; detail=disk")
        let avatar = await harness.get("/avatars/h.png")
        #expect(avatar.fields["Cache-Status"] == "mediactl; fwd=uri-miss; fwd-status=200; ttl=300; stored; detail=disk")
        harness.clock.advance(86_399)
        let hit = await harness.get("/catalog/h.png")
        #expect(hit.fields["Cache-Status"] == "mediactl; hit; ttl=1")
        #expect(origin.callCount == 2)
    }

    @Test(arguments: ["0", "-1", "not-a-date", ""])
    func c09InvalidExpiresIsStaleAtOnceAndValidatedNext(expires: String) async throws {
        let lastModified = HTTPDate.format(Self.now - 30 * 86_400)
        let origin = ScriptedOrigin { request, _ in
            // A 304 names its validator (RFC 9111 §4.3.4: without one it selects nothing stored here).
            if request.fields["If-Modified-Since"] == lastModified {
                return OriginResponse(status: 304, fields: ["Last-Modified": lastModified])
            }
            return OriginResponse(status: 200, fields: ["Date": HTTPDate.format(Self.now), "Expires": expires,
                                                        "Last-Modified": lastModified],
                                  body: PipelineSupport.markedPNG("MARK-expires"))
        }
        let harness = try PipelineHarness(fetcher: origin)
        defer { Task { await harness.close() } }
        let first = await harness.get("/catalog/e.png")
        #expect(first.fields["Cache-Status"] == "mediactl; fwd=uri-miss; fwd-status=200; ttl=0; stored; detail=disk")
        let second = await harness.get("/catalog/e.png")
        #expect(second.fields["Cache-Status"] == "mediactl; fwd=stale; fwd-status=304; ttl=0")
        #expect(second.body == PipelineSupport.markedPNG("MARK-expires"))
        #expect(origin.requests.map { $0.fields["If-Modified-Since"] } == [nil, lastModified])
    }

    @Test func c09ExpiresZeroWithMaxAgeIsFresh() async throws {
        let origin = ScriptedOrigin { _, _ in
            OriginResponse(status: 200, fields: ["Expires": "0", "Cache-Control": "max-age=600"], body: PipelineSupport.markedPNG("MARK"))
        }
        let harness = try PipelineHarness(fetcher: origin)
        defer { Task { await harness.close() } }
        _ = await harness.get("/catalog/e.png")
        let hit = await harness.get("/catalog/e.png")
        #expect(hit.fields["Cache-Status"] == "mediactl; hit; ttl=600")
    }

    /// `memoryBytes` and `diskBytes` accept 0 (policy range 0…max): the service starts, serves, and
    /// audits the response it could not keep (`skip`, reason `store-failed`).
    @Test func zeroByteBudgetsStartAndServeWithoutKeeping() async throws {
        let policy = PipelineHarness.defaultPolicy.replacingOccurrences(
            of: "\"maxTTL\": 31536000, \"maxObjectBytes\"", with: "\"maxTTL\": 31536000, \"memoryBytes\": 0, \"diskBytes\": 0, \"maxObjectBytes\"")
        let harness = try PipelineHarness(policyJSON: policy)
        defer { Task { await harness.close() } }
        #expect(harness.service.policies.tiers["public"]?.diskBytes == 0)
        let jpeg = try Fixtures.bytes("catalog/coins-1fea11f1.jpg")
        harness.origin.setReply(.init(fields: ["Cache-Control": "max-age=600"], body: jpeg), for: Self.jpegURL)
        let first = await harness.get("/catalog/coins.jpg")
        #expect(first.status == 200)
        #expect(first.body == jpeg)
        #expect(first.fields["Cache-Status"] == "mediactl; fwd=uri-miss; fwd-status=200; ttl=600; detail=store-failed")
        #expect(first.outcome.storage == .notStored)
        _ = await harness.get("/catalog/coins.jpg")
        #expect(harness.origin.callCount(for: Self.jpegURL) == 2)
        #expect(harness.filesUnderState().filter { $0.path.hasPrefix("disk/") }.isEmpty)
        // The store refused the entry (larger than its per-entry cap) before its record: a skip, no store/evict pair.
        #expect(PipelineSupport.events(try harness.auditRecords()).prefix(2) == ["skip:store-failed", "skip:store-failed"])
    }
}
