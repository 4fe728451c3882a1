import HTTPCaching
import MediaCore
@testable import MediaService
import MediaSigning
import MediaTestSupport
import Testing

/// Signed URLs on the synchronous fast path against the full path (issue 41): a target whose signature the full path
/// verified is answered fast in its subject's partition until it expires; a new, expired, tampered, unknown-key or
/// missing signature is the full path's to answer. Each request is answered both ways, with the same answer.
@Suite struct HitPathSignedTests {
    static let url = "http://origin.test/receipts/r.png"

    /// Alice's and Bob's receipts stored through their signed URLs, 3 s ago; the URLs.
    private func primed(_ world: SignedURLWorld) async throws -> (alice: String, bob: String) {
        world.harness.origin.setReply(
            .init(fields: ["Cache-Control": "private, max-age=60", "ETag": "\"r\""], body: PipelineSupport.markedPNG("MARK-R")),
            for: Self.url)
        let alice = try world.sign("/receipts/r.png", subject: "alice")
        let bob = try world.sign("/receipts/r.png", subject: "bob")
        #expect(await world.harness.get(alice).status == 200)
        #expect(await world.harness.get(bob).status == 200)
        world.harness.clock.advance(3)
        return (alice, bob)
    }

    @Test func everyRequestOfTheMatrixGetsTheFullPathsAnswer() async throws {
        let world = try SignedURLWorld()
        defer { Task { await world.close() } }
        let (alice, bob) = try await primed(world)
        let service = world.harness.service
        let tampered = alice.replacingOccurrences(of: "sub=alice", with: "sub=alicf")
        let unknownKey = alice.replacingOccurrences(of: "kid=k1", with: "kid=k9")
        let rows: [(target: String, fields: [(String, String)], method: String, fast: Bool, status: Int?)] = [
            (alice, [], "GET", true, 200),
            (bob, [], "GET", true, 200),
            (alice, [], "HEAD", true, 200),
            (alice, [("Accept", "image/*"), ("User-Agent", "t/1")], "GET", true, 200),
            (alice, [("Range", "bytes=0-9")], "GET", false, 206),
            (alice, [("If-None-Match", "\"r\"")], "GET", false, 304),
            (alice, [("Authorization", "Bearer stolen")], "GET", false, 200),
            (tampered, [], "GET", false, 403),
            (unknownKey, [], "GET", false, 403),
            ("/receipts/r.png", [], "GET", false, 401),
            ("/receipts/r.png?sig=AAAA", [], "GET", false, 403),
        ]
        for (index, row) in rows.enumerated() {
            let result = HitPathSupport.compare(service, HitPathSupport.request(row.target, row.fields, method: row.method))
            #expect(result.fast == row.fast, "row \(index)")
            #expect(result.response?.status.code == row.status, "row \(index)")
        }
        // A new signature of the same path is verified by the full path first, then answered fast.
        world.harness.clock.advance(1)
        let renewed = try world.sign("/receipts/r.png", subject: "alice", for: 200)
        #expect(!HitPathSupport.compare(service, HitPathSupport.request(renewed)).fast)
        #expect(HitPathSupport.compare(service, HitPathSupport.request(renewed)).fast)
        #expect(world.harness.origin.callCount(for: Self.url) == 2)
    }

    @Test func aFastAnswerIsCappedAtTheSignatureAndInTheSubjectsPartition() async throws {
        let world = try SignedURLWorld()
        defer { Task { await world.close() } }
        let (alice, _) = try await primed(world)
        let service = world.harness.service
        let request = HitPathSupport.request(alice)
        let fast = try #require(service.hitPath.answer(request))
        #expect(fast.fields["Cache-Control"] == "private, max-age=297")
        #expect(fast.fields["Referrer-Policy"] == "no-referrer")
        #expect(fast.fields["Cache-Status"] == "mediactl; hit; ttl=57")
        #expect(fast.outcome == ServiceOutcome(route: "receipts", tier: "signed", cacheStatus: "mediactl; hit; ttl=57",
                                               storage: .hit, partition: service.keys.partition(forSubject: "alice")))
        let viaHandle = await HitPathSupport.compareAsync(service, request)
        #expect(viaHandle.fields == fast.fields)
        // The kept Cache-Control follows the clock, second by second, as the full path's does.
        #expect(HitPathSupport.compare(service, request).response?.fields["Cache-Control"] == "private, max-age=297")
        world.harness.clock.advance(1)
        #expect(HitPathSupport.compare(service, request).response?.fields["Cache-Control"] == "private, max-age=296")
        // Expired: the full path's 403, never a fast answer.
        world.harness.clock.advance(300)
        let expired = HitPathSupport.compare(service, request)
        #expect(!expired.fast)
        #expect(expired.response.flatMap(PipelineSupport.problemCode) == "signature-expired")
    }

    /// The origin's `Vary: Authorization` names the service's own token (the origin request's): a signed hit matches it as
    /// the full path does, against the fields the origin request would carry.
    @Test func varyAuthorizationFromTheOriginStillAnswersFast() async throws {
        let world = try SignedURLWorld()
        defer { Task { await world.close() } }
        world.harness.origin.setReply(
            .init(fields: ["Cache-Control": "private, max-age=60", "Vary": "Authorization, Accept"],
                  body: PipelineSupport.markedPNG("MARK-V")),
            for: Self.url)
        let alice = try world.sign("/receipts/r.png", subject: "alice")
        #expect(await world.harness.get(alice).status == 200)
        world.harness.clock.advance(2)
        let service = world.harness.service
        let plain = HitPathSupport.compare(service, HitPathSupport.request(alice))
        #expect(plain.fast)
        #expect(plain.response?.fields["Cache-Status"] == "mediactl; hit; ttl=58")
        // Accept is not forwarded by this tier, so it never selects; a client Authorization is the full path's.
        #expect(HitPathSupport.compare(service, HitPathSupport.request(alice, [("Accept", "image/webp")])).fast)
        let withToken = HitPathSupport.compare(service, HitPathSupport.request(alice, [("Authorization", "Bearer x")]))
        #expect(!withToken.fast)
        #expect(withToken.response?.status == 200)
        #expect(world.harness.origin.totalCallCount == 1)
    }

    @Test func aTierThatAlsoTakesBearersAnswersEachKindInItsOwnPartition() async throws {
        let world = try SignedURLWorld(required: false)
        defer { Task { await world.close() } }
        let origin = world.harness.origin
        origin.setReply(.init(fields: ["Cache-Control": "private, max-age=60"], body: PipelineSupport.markedPNG("MARK-SIGNED")),
                        for: Self.url, authorization: .value("Bearer " + SignedURLWorld.token))
        origin.setReply(.init(fields: ["Cache-Control": "private, max-age=60"], body: PipelineSupport.markedPNG("MARK-BEARER")),
                        for: Self.url, authorization: .value("Bearer u1"))
        let alice = try world.sign("/receipts/r.png", subject: "alice")
        #expect(await world.harness.get(alice).status == 200)
        #expect(await world.harness.get("/receipts/r.png", [("Authorization", "Bearer u1")]).status == 200)
        let signed = HitPathSupport.compare(world.harness.service, HitPathSupport.request(alice))
        #expect(signed.fast)
        #expect(signed.response?.text.contains("MARK-SIGNED") == true)
        let bearer = HitPathSupport.compare(world.harness.service,
                                            HitPathSupport.request("/receipts/r.png", [("Authorization", "Bearer u1")]))
        #expect(bearer.fast)
        #expect(bearer.response?.text.contains("MARK-BEARER") == true)
        #expect(signed.response?.outcome.partition != bearer.response?.outcome.partition)
        #expect(origin.totalCallCount == 2)
    }
}
