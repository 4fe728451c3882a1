import Foundation
import HTTPCaching
import MediaAudit
import MediaPolicy
import MediaTestSupport
@testable import MediaService
import Testing

/// CASES.md "Persistence", C18 (plaintext private bytes on disk) and C19 (logout purge).
@Suite struct SealedStorageAndPurgeTests {
    static let token = "tok-C18-u1-5e4d3c2b1a"
    static let receipts = ["receipts/r-7731.png", "receipts/attachment-3301.jpg"]

    /// 64-byte slices of `bytes` at the start, a quarter, the middle and the end.
    static func slices(_ bytes: [UInt8]) -> [[UInt8]] {
        [0, bytes.count / 4, bytes.count / 2, bytes.count - 64].map { Array(bytes[$0..<($0 + 64)]) }
    }

    func fetchReceipts(_ harness: PipelineHarness) async throws -> [[UInt8]] {
        var bodies: [[UInt8]] = []
        for fixture in Self.receipts {
            let body = try Fixtures.bytes(fixture)
            harness.origin.setReply(.init(fields: ["Cache-Control": "private, max-age=300", "Content-Type": "image/png"], body: body),
                                    for: "http://origin.test/" + fixture, authorization: .value("Bearer " + Self.token))
            let response = await harness.get("/" + fixture, [("Authorization", "Bearer " + Self.token)])
            #expect(response.status == 200)
            #expect(response.body == body)
            #expect(response.fields["Cache-Control"] == "private, no-store")
            #expect(response.fields["Vary"] == "Authorization")
            #expect(response.outcome.storage == .stored(.encryptedDisk))
            let hit = await harness.get("/" + fixture, [("Authorization", "Bearer " + Self.token)])
            #expect(hit.body == body)
            #expect(hit.fields["Cache-Control"] == "private, no-store")
            #expect(hit.fields["Cache-Status"] == "mediactl; hit; ttl=300")
            bodies.append(body)
        }
        return bodies
    }

    func expectNoPlaintext(_ bodies: [[UInt8]], under harness: PipelineHarness) {
        for file in harness.filesUnderState() {
            for body in bodies {
                for slice in Self.slices(body) { #expect(!file.bytes.contains(slice), "receipt bytes in \(file.path)") }
            }
            let text = String(decoding: file.bytes, as: UTF8.self)
            #expect(!text.contains(Self.token), "token in \(file.path)")
            #expect(!text.contains("r-7731"), "private path in \(file.path)")
            #expect(!text.contains("attachment-3301"), "private path in \(file.path)")
        }
    }

    func sealedFiles(_ harness: PipelineHarness) -> [String] {
        harness.filesUnderState().map(\.path).filter { $0.hasPrefix("sealed/") }
    }

    @Test func c18SealedFilesHoldNoPlaintextAndAreShreddedAtStop() async throws {
        let harness = try PipelineHarness()
        defer { Task { await harness.close() } }
        let bodies = try await fetchReceipts(harness)
        #expect(sealedFiles(harness).count == 2)
        #expect(sealedFiles(harness).allSatisfy { $0.hasPrefix("sealed/private/") })
        expectNoPlaintext(bodies, under: harness)

        await harness.service.stop()
        #expect(sealedFiles(harness).isEmpty)
        let restarted = try PipelineHarness(stateDirectory: harness.stateDirectory)
        #expect(sealedFiles(restarted).isEmpty)
        let events = PipelineSupport.events(try restarted.auditRecords())
        #expect(events == ["store:tier-storage", "store:tier-storage", "shred:service-stop", "shred:service-stop", "shred:service-stop",
                           "stop:graceful-stop"])
        let shredKeys = try restarted.auditRecords().filter { $0.entry.event.rawValue == "shred" }.compactMap(\.entry.key?.hex)
        let storeKeys = try restarted.auditRecords().filter { $0.entry.event.rawValue == "store" }.compactMap(\.entry.key?.hex)
        #expect(Set(shredKeys) == Set(storeKeys))
        #expect(try restarted.auditRecords().map(\.entry.event.rawValue).suffix(1) == ["start"])
        // The restarted service has nothing for U1: the origin is asked again.
        restarted.origin.setReply(.init(fields: ["Cache-Control": "max-age=300"], body: bodies[0]),
                                  for: "http://origin.test/" + Self.receipts[0])
        let again = await restarted.get("/" + Self.receipts[0], [("Authorization", "Bearer " + Self.token)])
        #expect(again.fields["Cache-Status"] == "mediactl; fwd=uri-miss; fwd-status=200; ttl=300; stored; detail=encrypted-disk")
        expectNoPlaintext(bodies, under: restarted)
        await restarted.close()
    }

    @Test func c18SealedFilesOfACrashedProcessAreShreddedAsUnreadableAtRestart() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pipeline-\(UUID().uuidString)").path
        let policies = try PolicyLoader().load(sources: [.init(name: "Policies/test.json",
                                                               bytes: Array(PipelineHarness.defaultPolicy.utf8))])
        let origin = CountingOriginFetcher()
        // The "crashed" process: its own audit recorder, not stopped before the restart.
        let crashed = try MediaService(policies: policies, fetcher: origin, configuration: .init(
            stateDirectory: directory, clock: { 1_800_000_000 }, synchronizesWrites: false),
            auditLog: InMemoryAuditLog())
        let receipt = try Fixtures.bytes(Self.receipts[0])
        origin.setReply(.init(fields: ["Cache-Control": "max-age=300"], body: receipt), for: "http://origin.test/" + Self.receipts[0])
        let response = await crashed.handle(ServiceRequest(target: "/" + Self.receipts[0],
                                                           fields: ["Authorization": "Bearer " + Self.token]))
        #expect(response.outcome.storage == .stored(.encryptedDisk))
        crashed.flushWrites()   // the crash comes after the sealed file landed

        let restarted = try PipelineHarness(stateDirectory: directory)
        #expect(sealedFiles(restarted).isEmpty)
        let records = try restarted.auditRecords()
        #expect(records.map { "\($0.entry.event.rawValue):\($0.entry.reason?.rawValue ?? "")" }
                == ["start:service-start", "shred:unreadable-after-restart", "shred:unreadable-after-restart"])
        // One record per shredded file, then the batch summary with its count (docs/audit-format.md).
        #expect(records[1].entry.key != nil)
        #expect(records.last?.entry.key == nil)
        #expect(records.last?.entry.count == 1)
        #expect(records.last?.entry.tier?.rawValue == "private")
        #expect(records.last?.entry.partition == nil)
        #expect(records.last?.entry.url == nil)
        await restarted.close()
        await crashed.stop()
    }

    // MARK: C19 Logout

    @Test func c19PurgeByCredentialRemovesOnlyThatPartition() async throws {
        let harness = try PipelineHarness()
        defer { Task { await harness.close() } }
        let png = try Fixtures.bytes("receipts/r-7731.png")
        let jpeg = try Fixtures.bytes("receipts/r-7732.jpg")
        let catalog = try Fixtures.bytes("catalog/horse-d29d871c.jpg")
        harness.origin.setReply(.init(fields: ["Cache-Control": "max-age=300"], body: png), for: "http://origin.test/receipts/a.png")
        harness.origin.setReply(.init(fields: ["Cache-Control": "max-age=300"], body: jpeg), for: "http://origin.test/receipts/b.jpg")
        harness.origin.setReply(.init(fields: ["Cache-Control": "max-age=3600"], body: catalog), for: "http://origin.test/catalog/h.jpg")
        let u1 = [("Authorization", "Bearer t1")], u2 = [("Authorization", "Bearer t2")]
        _ = await harness.get("/receipts/a.png", u1)
        _ = await harness.get("/receipts/b.jpg", u1)
        _ = await harness.get("/receipts/a.png", u2)
        _ = await harness.get("/catalog/h.jpg")
        #expect(sealedFiles(harness).count == 3)
        #expect(harness.origin.totalCallCount == 4)

        let removed = try harness.service.purge(.credential(try BearerToken(token: "t1")))
        #expect(removed == 2)
        #expect(sealedFiles(harness).count == 1)
        let records = try harness.auditRecords()
        let purges = records.filter { $0.entry.event.rawValue == "purge" }
        #expect(purges.count == 3)
        #expect(purges.map { $0.entry.reason?.rawValue } == ["purge-credential", "purge-credential", "purge-credential"])
        #expect(purges.map(\.entry.count) == [nil, nil, 2])
        let u1Partition = try #require(purges.first?.entry.partition)
        #expect(purges.allSatisfy { $0.entry.partition == u1Partition })
        let u1Stores = records.filter { $0.entry.event.rawValue == "store" && $0.entry.partition == u1Partition }
        #expect(Set(u1Stores.compactMap(\.entry.key)) == Set(purges.prefix(2).compactMap(\.entry.key)))

        let u2Again = await harness.get("/receipts/a.png", u2)
        #expect(u2Again.fields["Cache-Status"] == "mediactl; hit; ttl=300")
        let publicAgain = await harness.get("/catalog/h.jpg")
        #expect(publicAgain.fields["Cache-Status"] == "mediactl; hit; ttl=3600")
        let u1Again = await harness.get("/receipts/a.png", u1)
        #expect(u1Again.fields["Cache-Status"] == "mediactl; fwd=uri-miss; fwd-status=200; ttl=300; stored; detail=encrypted-disk")
        let u1Hit = await harness.get("/receipts/a.png", u1)
        #expect(u1Hit.fields["Cache-Status"] == "mediactl; hit; ttl=300")
        #expect(u1Hit.body == png)
        #expect(harness.origin.totalCallCount == 5)
        #expect(sealedFiles(harness).count == 2)
        // A purge of a credential with nothing stored removes nothing and still records a summary.
        #expect(try harness.service.purge(.credential(try BearerToken(token: "t3"))) == 0)
        #expect(try harness.auditRecords().last?.entry.count == 0)
    }

    @Test func c19PurgeByCredentialReachesEveryTierThatPartitionsByIt() async throws {
        let harness = try PipelineHarness(policyJSON: PipelineSupport.forwardingPolicy)
        defer { Task { await harness.close() } }
        for path in ["receipts/a.png", "mem/a.png", "pfwd/a.png", "fwd/a.png"] {
            harness.origin.setReply(.init(fields: ["Cache-Control": "public, max-age=300"], body: PipelineSupport.markedPNG("MARK-U1")),
                                    for: "http://origin.test/" + path)
            let response = await harness.get("/" + path, [("Authorization", "Bearer t1")])
            #expect(response.fields["Cache-Status"]?.contains("stored") == true, "\(path) not stored")
            _ = await harness.get("/" + path, [("Authorization", "Bearer t2")])
        }
        #expect(try harness.service.purge(.credential(try BearerToken(token: "t1"))) == 4)
        for name in ["private", "private-mem", "shared-fwd", "private-fwd"] {
            let runtime = try #require(harness.service.runtimes[name])
            let left = runtime.memory.inventory() + (runtime.hot?.inventory() ?? []) + (runtime.sealed?.inventory() ?? [])
            #expect(left.count == (runtime.hot == nil ? 1 : 2), "\(name) keeps \(left.count)")
            #expect(Set(left.map(\.partition)).count == 1)
        }
        for path in ["receipts/a.png", "mem/a.png", "pfwd/a.png", "fwd/a.png"] {
            let u1 = await harness.get("/" + path, [("Authorization", "Bearer t1")])
            #expect(u1.fields["Cache-Status"]?.hasPrefix("mediactl; fwd=uri-miss") == true, "\(path) kept U1's entry")
            let u2 = await harness.get("/" + path, [("Authorization", "Bearer t2")])
            #expect(u2.fields["Cache-Status"] == "mediactl; hit; ttl=300", "\(path) lost U2's entry")
        }
    }

    /// A fetch in flight when the purge runs must not bring the purged partition back.
    @Test func c19FetchInFlightDuringThePurgeIsNotStored() async throws {
        let origin = GatedOrigin { _, _ in
            OriginResponse(status: 200, fields: ["Cache-Control": "max-age=300"], body: PipelineSupport.markedPNG("MARK-U1"))
        }
        let harness = try PipelineHarness(fetcher: origin)
        defer { Task { await harness.close() } }
        async let inFlight = harness.get("/receipts/a.png", [("Authorization", "Bearer t1")])
        #expect(await eventually { origin.callCount == 1 })
        #expect(try harness.service.purge(.credential(try BearerToken(token: "t1"))) == 0)
        await origin.open()
        let response = await inFlight
        #expect(response.status == 200)
        #expect(response.body == PipelineSupport.markedPNG("MARK-U1"))
        #expect(response.outcome.storage == .notStored)
        #expect(sealedFiles(harness).isEmpty)
        let next = await harness.get("/receipts/a.png", [("Authorization", "Bearer t1")])
        #expect(next.fields["Cache-Status"] == "mediactl; fwd=uri-miss; fwd-status=200; ttl=300; stored; detail=encrypted-disk")
        #expect(PipelineSupport.events(try harness.auditRecords()) == ["purge:purge-credential", "skip:purged-during-fetch", "store:tier-storage"])
    }

    @Test func c19PurgeOfAnUnknownRouteThrows() async throws {
        let harness = try PipelineHarness()
        defer { Task { await harness.close() } }
        #expect(throws: ServiceError(.unknownRoute, "no route named nope; routes: catalog, avatars, receipts, one-time")) {
            try harness.service.purge(.route("nope"))
        }
    }

    // MARK: Disk tiers across restarts, purge scopes, sweep

    @Test func diskTierEntriesSurviveAGracefulRestart() async throws {
        let harness = try PipelineHarness()
        defer { Task { await harness.close() } }
        let jpeg = try Fixtures.bytes("catalog/motorcycle-f14d29f1.jpg")
        harness.origin.setReply(.init(fields: ["Cache-Control": "max-age=600", "ETag": "\"m1\""], body: jpeg),
                                for: "http://origin.test/catalog/m.jpg")
        _ = await harness.get("/catalog/m.jpg")
        await harness.service.stop()
        let restarted = try PipelineHarness(stateDirectory: harness.stateDirectory)
        restarted.clock.advance(10)
        let hit = await restarted.get("/catalog/m.jpg")
        #expect(hit.status == 200)
        #expect(hit.body == jpeg)
        #expect(hit.fields["Cache-Status"] == "mediactl; hit; ttl=590")
        #expect(hit.fields["Age"] == "10")
        #expect(hit.fields["ETag"] == "\"m1\"")
        #expect(restarted.origin.totalCallCount == 0)
        await restarted.service.stop()
    }

    @Test func purgeByRouteAndAllRemoveFilesAndRecordCounts() async throws {
        let harness = try PipelineHarness()
        defer { Task { await harness.close() } }
        let jpeg = try Fixtures.bytes("catalog/horse-d29d871c.jpg")
        for path in ["catalog/a.jpg", "catalog/b.jpg", "avatars/c.jpg", "receipts/d.jpg"] {
            harness.origin.setReply(.init(fields: ["Cache-Control": "max-age=600"], body: jpeg), for: "http://origin.test/" + path)
            _ = await harness.get("/" + path, [("Authorization", "Bearer t1")])
        }
        #expect(harness.filesUnderState().filter { $0.path.hasPrefix("disk/") || $0.path.hasPrefix("sealed/") }.count == 4)
        #expect(try harness.service.purge(.route("catalog")) == 2)
        #expect(harness.filesUnderState().filter { $0.path.hasPrefix("disk/public/") }.isEmpty)
        var records = try harness.auditRecords()
        #expect(records.suffix(3).map { "\($0.entry.event.rawValue):\($0.entry.reason?.rawValue ?? ""):\($0.entry.count.map(String.init) ?? "-")" }
                == ["purge:purge-route:-", "purge:purge-route:-", "purge:purge-route:2"])
        #expect(records.last?.entry.route?.rawValue == "catalog")
        let avatar = await harness.get("/avatars/c.jpg")
        #expect(avatar.fields["Cache-Status"] == "mediactl; hit; ttl=300")
        #expect(try harness.service.purge(.all) == 2)
        #expect(harness.filesUnderState().filter { $0.path.hasPrefix("disk/") || $0.path.hasPrefix("sealed/") }.isEmpty)
        records = try harness.auditRecords()
        #expect(records.last?.entry.count == 2)
        #expect(records.last?.entry.reason?.rawValue == "purge-all")
        let again = await harness.get("/catalog/a.jpg")
        #expect(again.fields["Cache-Status"] == "mediactl; fwd=uri-miss; fwd-status=200; ttl=600; stored; detail=disk")
    }

    @Test func sweepRemovesExpiredEntriesWithAnAuditedExpire() async throws {
        let harness = try PipelineHarness()
        defer { Task { await harness.close() } }
        let jpeg = try Fixtures.bytes("catalog/horse-d29d871c.jpg")
        harness.origin.setReply(.init(fields: ["Cache-Control": "max-age=60"], body: jpeg), for: "http://origin.test/receipts/r.jpg")
        _ = await harness.get("/receipts/r.jpg", [("Authorization", "Bearer t1")])
        harness.service.sweep()
        #expect(sealedFiles(harness).count == 1)
        harness.clock.advance(60)
        harness.service.sweep()
        #expect(sealedFiles(harness).isEmpty)
        #expect(PipelineSupport.events(try harness.auditRecords()) == ["store:tier-storage", "expire:expired"])
    }

    @Test func afterStopPartitionedRequestsAreRefusedAndNothingIsSealed() async throws {
        let harness = try PipelineHarness()
        defer { Task { await harness.close() } }
        harness.origin.setReply(.init(fields: ["Cache-Control": "max-age=60"], body: try Fixtures.bytes("receipts/r-7732.jpg")),
                                for: "http://origin.test/receipts/r.jpg")
        await harness.service.stop()
        let response = await harness.get("/receipts/r.jpg", [("Authorization", "Bearer t1")])
        #expect(response.status == 503)
        #expect(PipelineSupport.problemCode(response) == "stopping")
        #expect(PipelineSupport.problemMembers(response)?["detail"] as? String == "the service is stopping")
        #expect(harness.origin.totalCallCount == 0)
        #expect(sealedFiles(harness).isEmpty)
        let health = await harness.get("/_mediactl/health")
        #expect(health.text.contains("\"status\":\"stopping\""))
    }
}
