import HTTPCaching
import MediaCore
@testable import MediaService
import MediaTestSupport
import Testing

/// A bearer tier's hits on the synchronous fast path against the full path (issue 41): one matrix of requests
/// (valid, missing, malformed and lower-case credentials, two users, HEAD, ranges, conditionals, stale entries), each
/// answered both ways with the same status, fields, body and outcome; a user's own entry is served fast, another
/// user's never.
@Suite struct HitPathBearerTests {
    static let url = "http://origin.test/receipts/r.png"

    /// Two users' receipts stored (t1, t2), 3 s old; with `varyAuthorization`, the origin's answers carry
    /// `Vary: Authorization`, as private origins commonly send.
    private func primed(varyAuthorization: Bool = false) async throws -> PipelineHarness {
        let harness = try PipelineHarness(policyJSON: HitPathSupport.policy)
        var fields: HTTPFields = ["Cache-Control": "max-age=60", "ETag": "\"r\"", "Last-Modified": "Sun, 06 Nov 1994 08:49:37 GMT"]
        if varyAuthorization { fields.append(.vary, "Authorization") }
        harness.origin.setReply(.init(fields: fields, body: PipelineSupport.markedPNG("MARK-U1")), for: Self.url,
                                authorization: .value("Bearer t1"))
        harness.origin.setReply(.init(fields: fields, body: PipelineSupport.markedPNG("MARK-U2")), for: Self.url,
                                authorization: .value("Bearer t2"))
        #expect(await harness.get("/receipts/r.png", [("Authorization", "Bearer t1")]).status == 200)
        #expect(await harness.get("/receipts/r.png", [("Authorization", "Bearer t2")]).status == 200)
        harness.clock.advance(3)
        return harness
    }

    /// Each request of the matrix, whether the fast path answers it, and the status both paths give (`nil`: neither
    /// answers synchronously: the full path continues asynchronously).
    static let matrix: [(fields: [(String, String)], method: String, fast: Bool, status: Int?, mark: String?)] = [
        ([("Authorization", "Bearer t1")], "GET", true, 200, "MARK-U1"),
        ([("authorization", "Bearer t1")], "GET", true, 200, "MARK-U1"),
        ([("Authorization", "bearer t1")], "GET", true, 200, "MARK-U1"),
        ([("Authorization", "Bearer t2")], "GET", true, 200, "MARK-U2"),
        ([("Authorization", "Bearer t1")], "HEAD", true, 200, nil),
        ([("Authorization", "Bearer t3")], "GET", false, nil, nil),
        ([], "GET", false, 401, nil),
        ([("Authorization", "Bearer")], "GET", false, 401, nil),
        ([("Authorization", "Bearer t1 t2")], "GET", false, 401, nil),
        ([("Authorization", "Basic dDE6eA==")], "GET", false, 401, nil),
        ([("Authorization", "Bearer t1"), ("Authorization", "Bearer t2")], "GET", false, 401, nil),
        ([("Authorization", "Bearer t1"), ("Range", "bytes=0-9")], "GET", false, 206, nil),
        ([("Authorization", "Bearer t1"), ("If-None-Match", "\"r\"")], "GET", false, 304, nil),
        ([("Authorization", "Bearer t2"), ("Cache-Control", "max-age=0")], "GET", false, nil, nil),
        ([("Authorization", "Bearer t1"), ("Cookie", "s=1")], "GET", false, 200, "MARK-U1"),
    ]

    @Test func everyRequestOfTheMatrixGetsTheFullPathsAnswer() async throws {
        let harness = try await primed()
        defer { Task { await harness.close() } }
        for (index, row) in Self.matrix.enumerated() {
            let request = HitPathSupport.request("/receipts/r.png", row.fields, method: row.method)
            let result = HitPathSupport.compare(harness.service, request)
            #expect(result.fast == row.fast, "row \(index)")
            #expect(result.response?.status.code == row.status, "row \(index)")
            if let mark = row.mark { #expect(result.response?.text.contains(mark) == true, "row \(index)") }
            if row.method == "HEAD" { #expect(result.response?.body == [], "row \(index)") }
        }
        #expect(harness.origin.callCount(for: Self.url) == 2)
    }

    /// With `Vary: Authorization` the stored response's secondary key is the digest of the field as sent: the same
    /// spelling answers fast, another spelling of the same token is the full path's (a miss, as RFC 9111 §4.1 says).
    @Test func varyAuthorizationMatchesTheFieldAsSent() async throws {
        let harness = try await primed(varyAuthorization: true)
        defer { Task { await harness.close() } }
        for (index, row) in Self.matrix.enumerated() {
            let request = HitPathSupport.request("/receipts/r.png", row.fields, method: row.method)
            let result = HitPathSupport.compare(harness.service, request)
            let respelled = row.fields.contains { $0.1 == "bearer t1" }
            #expect(result.fast == (row.fast && !respelled), "row \(index)")
            #expect(result.response?.status.code == (respelled ? nil : row.status), "row \(index)")
            if let mark = row.mark, !respelled { #expect(result.response?.text.contains(mark) == true, "row \(index)") }
        }
        let fast = try #require(harness.service.hitPath.answer(
            HitPathSupport.request("/receipts/r.png", [("Authorization", "Bearer t1")])))
        #expect(fast.fields.values(for: .vary) == ["Authorization"])
    }

    @Test func aFastHitCarriesTheFullPathsFieldsAndPartition() async throws {
        let harness = try await primed()
        defer { Task { await harness.close() } }
        let service = harness.service
        let request = HitPathSupport.request("/receipts/r.png", [("Authorization", "Bearer t1")])
        let fast = try #require(service.hitPath.answer(request))
        #expect(fast.fields.fields.map(\.name) == [
            "ETag", "Last-Modified", "Content-Type", "Age", "Cache-Control", "Vary", "X-Content-Type-Options",
            "Cache-Status", "Accept-Ranges", "Content-Length",
        ])
        #expect(fast.fields["Vary"] == "Authorization")
        #expect(fast.fields["Cache-Control"] == "private, no-store")
        #expect(fast.fields["Age"] == "3")
        #expect(fast.fields["Cache-Status"] == "mediactl; hit; ttl=57")
        let token = try #require(try BearerToken.from(request.fields))
        let partition = try #require(service.keys.partition(for: token))
        #expect(fast.outcome == ServiceOutcome(route: "receipts", tier: "private", cacheStatus: "mediactl; hit; ttl=57",
                                               storage: .hit, partition: partition))
        // The same through handle (the async entry point) as through admission and serve.
        let viaHandle = await HitPathSupport.compareAsync(service, request)
        #expect(viaHandle.fields == fast.fields)
        harness.clock.advance(1)
        #expect(HitPathSupport.compare(service, request).response?.fields["Age"] == "4")
    }

    /// What a bearer hit learns is kept in the target's route per partition, so it is found only with that partition's
    /// token; the target's own slot keeps the route only.
    @Test func learnedSlotsAreKeptPerPartition() async throws {
        let harness = try await primed()
        defer { Task { await harness.close() } }
        let service = harness.service
        let t1 = HitPathSupport.request("/receipts/r.png", [("Authorization", "Bearer t1")])
        #expect(HitPathSupport.compare(service, t1).fast)
        let token1 = try #require(try BearerToken.from(t1.fields))
        let p1 = try #require(service.keys.partition(for: token1))
        let slots = try #require(service.hitRoutes.slot(for: "/receipts/r.png")?.route.partitionSlots)
        let own = try #require(slots.slot(for: p1))
        #expect(own.storeKey != nil)
        #expect(service.hitRoutes.slot(for: "/receipts/r.png")?.storeKey == nil)
        let t2 = HitPathSupport.request("/receipts/r.png", [("Authorization", "Bearer t2")])
        let token2 = try #require(try BearerToken.from(t2.fields))
        let p2 = try #require(service.keys.partition(for: token2))
        #expect(p2 != p1)
        let other = HitPathSupport.compare(service, t2)
        #expect(other.fast)
        #expect(other.response?.text.contains("MARK-U2") == true)
        #expect(slots.slot(for: p2)?.storeKey != own.storeKey)
        #expect(slots.count == 2)
    }

    @Test func aStaleEntryIsLeftToTheFullPath() async throws {
        let harness = try await primed()
        defer { Task { await harness.close() } }
        harness.clock.advance(60)
        let request = HitPathSupport.request("/receipts/r.png", [("Authorization", "Bearer t1")])
        let result = HitPathSupport.compare(harness.service, request)
        #expect(!result.fast)
        #expect(result.response == nil)
    }

    @Test func aPurgedPartitionIsNeverServedFast() async throws {
        let harness = try await primed()
        defer { Task { await harness.close() } }
        let service = harness.service
        let own = HitPathSupport.request("/receipts/r.png", [("Authorization", "Bearer t1")])
        #expect(HitPathSupport.compare(service, own).fast)
        let token = try #require(try BearerToken.from(own.fields))
        #expect(try service.purge(.credential(token)) == 1)
        let after = HitPathSupport.compare(service, own)
        #expect(!after.fast)
        #expect(after.response == nil)
        let other = HitPathSupport.compare(service, HitPathSupport.request("/receipts/r.png", [("Authorization", "Bearer t2")]))
        #expect(other.fast)
        #expect(other.response?.text.contains("MARK-U2") == true)
    }
}
