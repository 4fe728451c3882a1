import HTTPCaching
@testable import MediaService
import MediaTestSupport
import Testing

/// Single-flight origin exchanges through the pipeline: one origin call for concurrent cold
/// requests of one partition, never across partitions, never for answers that are not stored.
@Suite struct CoalescingTests {
    /// (flights in progress, total waiters) of the service's single-flight table.
    static func flightState(_ harness: PipelineHarness) -> (flights: Int, waiters: Int) {
        harness.service.forwarding.flights.flights.withLock { table in
            (table.count, table.values.reduce(0) { $0 + $1.waiters.count })
        }
    }

    @Test func hundredConcurrentColdRequestsForOnePublicImageCallTheOriginOnce() async throws {
        let jpeg = try Fixtures.bytes("catalog/horse-d29d871c.jpg")
        let origin = GatedOrigin { _, _ in
            OriginResponse(status: 200, fields: ["Cache-Control": "max-age=31536000"], body: jpeg)
        }
        let harness = try PipelineHarness(fetcher: origin)
        defer { Task { await harness.close() } }
        async let responses = PipelineSupport.concurrently(100) { _ in await harness.get("/catalog/horse.jpg") }
        #expect(await eventually { Self.flightState(harness) == (1, 99) })
        #expect(origin.callCount == 1)
        await origin.open()
        let all = await responses
        #expect(origin.callCount == 1)
        #expect(all.allSatisfy { $0.status == 200 && $0.body == jpeg })
        let statuses = all.map { $0.fields["Cache-Status"] ?? "" }
        #expect(statuses.filter { $0 == "mediactl; fwd=uri-miss; fwd-status=200; ttl=31536000; stored; detail=disk" }.count == 1)
        #expect(statuses.filter { $0 == "mediactl; fwd=uri-miss; fwd-status=200; ttl=31536000; stored; collapsed; detail=disk" }.count == 99)
        #expect(all.filter { $0.outcome.storage == .collapsed }.count == 99)
        let metrics = Set((await harness.get("/_mediactl/metrics")).text.split(separator: "\n").map(String.init))
        #expect(metrics.contains("mediactl_misses_total{tier=\"public\"} 100"))
        #expect(metrics.contains("mediactl_coalesced_total{tier=\"public\"} 99"))
        #expect(PipelineSupport.events(try harness.auditRecords()) == ["store:tier-storage"])
        #expect(Self.flightState(harness) == (0, 0))
    }

    @Test func threePartitionsConcurrentlyMakeThreeOriginCalls() async throws {
        let origin = GatedOrigin { request, _ in
            let user = request.fields["Authorization"] ?? "none"
            return OriginResponse(status: 200, fields: ["Cache-Control": "max-age=60"], body: PipelineSupport.markedPNG("MARK-" + user))
        }
        let harness = try PipelineHarness(fetcher: origin)
        defer { Task { await harness.close() } }
        let tokens = ["t1", "t2", "t3"]
        async let responses = PipelineSupport.concurrently(3) { index in
            await harness.get("/receipts/doc.png", [("Authorization", "Bearer " + tokens[index])])
        }
        #expect(await eventually { Self.flightState(harness) == (3, 0) })
        await origin.open()
        let all = await responses
        #expect(origin.callCount == 3)
        #expect(Set(origin.requests.map { $0.fields["Authorization"] ?? "" }) == ["Bearer t1", "Bearer t2", "Bearer t3"])
        for (index, response) in all.enumerated() {
            #expect(response.status == 200)
            #expect(response.body == PipelineSupport.markedPNG("MARK-Bearer " + tokens[index]))
            #expect(response.fields["Cache-Status"] == "mediactl; fwd=uri-miss; fwd-status=200; ttl=60; stored; detail=encrypted-disk")
        }
    }

    @Test func concurrentRequestsOnANoStoreTierAreNotShared() async throws {
        let origin = GatedOrigin { _, number in
            OriginResponse(status: 200, fields: ["Cache-Control": "max-age=60"], body: PipelineSupport.markedPNG("MARK-\(number)"))
        }
        let harness = try PipelineHarness(fetcher: origin)
        defer { Task { await harness.close() } }
        async let responses = PipelineSupport.concurrently(5) { _ in await harness.get("/one-time/ticket.png") }
        #expect(await eventually { Self.flightState(harness) == (1, 4) })
        await origin.open()
        let all = await responses
        #expect(origin.callCount == 5)
        #expect(Set(all.map(\.body)) == Set((1...5).map { PipelineSupport.markedPNG("MARK-\($0)") }))
        for response in all {
            #expect(response.status == 200)
            #expect(response.fields["Cache-Control"] == "no-store")
            #expect(response.fields["Cache-Status"] == "mediactl; fwd=uri-miss; fwd-status=200; detail=tier-storage")
            #expect(response.outcome.storage == .notStored)
        }
        #expect(PipelineSupport.events(try harness.auditRecords()) == Array(repeating: "skip:tier-storage", count: 5))
        let runtime = try #require(harness.service.runtimes["no-store"])
        #expect(runtime.memory.inventory().isEmpty)
        #expect(runtime.hot == nil && runtime.disk == nil && runtime.sealed == nil)
    }

    @Test func concurrentStaleRequestsShareOneConditionalRequest() async throws {
        let avatar = try Fixtures.bytes("avatars/u1001.jpg")
        let origin = GatedOrigin(ungatedCalls: 1) { request, _ in
            request.fields.contains("If-None-Match")
                ? OriginResponse(status: 304, fields: ["ETag": "\"a1\""])
                : OriginResponse(status: 200, fields: ["Cache-Control": "max-age=60", "ETag": "\"a1\""], body: avatar)
        }
        let harness = try PipelineHarness(fetcher: origin)
        defer { Task { await harness.close() } }
        _ = await harness.get("/avatars/u1001.jpg")
        harness.clock.advance(61)
        async let responses = PipelineSupport.concurrently(10) { _ in await harness.get("/avatars/u1001.jpg") }
        #expect(await eventually { Self.flightState(harness) == (1, 9) })
        await origin.open()
        let all = await responses
        #expect(origin.callCount == 2)
        #expect(origin.requests.map { $0.fields["If-None-Match"] } == [nil, "\"a1\""])
        #expect(all.allSatisfy { $0.status == 200 && $0.body == avatar })
        let statuses = all.map { $0.fields["Cache-Status"] ?? "" }
        #expect(statuses.filter { $0 == "mediactl; fwd=stale; fwd-status=304; ttl=60" }.count == 1)
        #expect(statuses.filter { $0 == "mediactl; fwd=stale; fwd-status=304; ttl=60; collapsed" }.count == 9)
        let metrics = Set((await harness.get("/_mediactl/metrics")).text.split(separator: "\n").map(String.init))
        #expect(metrics.contains("mediactl_revalidations_total{tier=\"avatar\"} 10"))
        #expect(metrics.contains("mediactl_coalesced_total{tier=\"avatar\"} 9"))
        #expect(PipelineSupport.events(try harness.auditRecords()) == ["store:tier-storage", "update:not-modified"])
    }

    @Test func privateAnswerOnASharedTierIsNotHandedToWaiters() async throws {
        let origin = GatedOrigin { _, number in
            OriginResponse(status: 200, fields: ["Cache-Control": "private, max-age=60"], body: PipelineSupport.markedPNG("MARK-\(number)"))
        }
        let harness = try PipelineHarness(fetcher: origin)
        defer { Task { await harness.close() } }
        async let responses = PipelineSupport.concurrently(4) { _ in await harness.get("/catalog/me.png") }
        #expect(await eventually { Self.flightState(harness) == (1, 3) })
        await origin.open()
        let all = await responses
        #expect(origin.callCount == 4)
        #expect(Set(all.map(\.body)).count == 4)
        #expect(all.allSatisfy { $0.fields["Cache-Status"] == "mediactl; fwd=uri-miss; fwd-status=200; detail=private-in-shared-cache" })
    }

    /// The flight key covers the usual negotiation fields only; a waiter whose request does not
    /// match the leader's answer under its `Vary` (RFC 9111 §4.1) must not receive it.
    @Test func waiterWhoseRequestDoesNotMatchTheLeadersVaryFetchesItsOwn() async throws {
        let origin = GatedOrigin { request, _ in
            let device = request.fields["X-Device"] ?? "none"
            return OriginResponse(status: 200, fields: ["Cache-Control": "max-age=60", "Vary": "X-Device"],
                                  body: PipelineSupport.markedPNG("MARK-" + device))
        }
        let harness = try PipelineHarness(policyJSON: PipelineHarness.defaultPolicy(publicForwards: ["X-Device"]), fetcher: origin)
        defer { Task { await harness.close() } }
        let devices = ["phone", "tablet", "phone"]
        async let leader = harness.get("/catalog/v.png", [("X-Device", "phone")])
        #expect(await eventually { Self.flightState(harness) == (1, 0) })
        async let waiters = PipelineSupport.concurrently(2) { index in
            await harness.get("/catalog/v.png", [("X-Device", devices[index + 1])])
        }
        #expect(await eventually { Self.flightState(harness) == (1, 2) })
        await origin.open()
        let all = [await leader] + (await waiters)
        for (index, response) in all.enumerated() {
            #expect(response.body == PipelineSupport.markedPNG("MARK-" + devices[index]), "caller \(index)")
        }
        #expect(all.map { $0.fields["Cache-Status"] ?? "" } == [
            "mediactl; fwd=uri-miss; fwd-status=200; ttl=60; stored; detail=disk",
            "mediactl; fwd=uri-miss; fwd-status=200; ttl=60; stored; detail=disk",
            "mediactl; fwd=uri-miss; fwd-status=200; ttl=60; stored; collapsed; detail=disk",
        ])
        #expect(origin.requests.map { $0.fields["X-Device"] } == ["phone", "tablet"])
        // Only the second phone request was answered by another's exchange; the tablet one sent its own.
        let metrics = Set((await harness.get("/_mediactl/metrics")).text.split(separator: "\n").map(String.init))
        #expect(metrics.contains("mediactl_misses_total{tier=\"public\"} 3"))
        #expect(metrics.contains("mediactl_coalesced_total{tier=\"public\"} 1"))
    }
}
