import Foundation
import Testing

/// Every tier through the real binary and a real nginx origin, for two users (U1 `Bearer t1`, U2 `Bearer t2`).
@Suite(.enabled(if: NginxOrigin.isAvailable, "nginx is installed by scripts/test"), .serialized)
struct TierTests {
    static let horse = "catalog/horse-d29d871c.jpg"
    static let receipt = "receipts/r-7731.png"

    @Test func catalogMissThenHitAndCredentialsNeverReachTheOrigin() throws {
        let world = try ServeEnvironment()
        defer { world.tearDown() }
        try world.start()

        let first = try world.get("/" + Self.horse, token: "t1")
        #expect(first.status == 200)
        #expect(first.body == Fixtures.bytes(Self.horse))
        #expect(first.cacheStatus.forward == "uri-miss")
        #expect(first.cacheStatus.stored)
        #expect(first.header("Content-Type") == "image/jpeg")
        #expect(first.header("X-Content-Type-Options") == "nosniff")
        #expect(first.header("Cache-Control") == "public, max-age=31536000, immutable")

        let second = try world.get("/" + Self.horse)
        #expect(second.status == 200)
        #expect(second.body == Fixtures.bytes(Self.horse))
        #expect(second.cacheStatus.hit)
        #expect(second.cacheStatus.cacheName == "mediactl")
        #expect(second.header("Age") != nil)

        // One origin request, and the public tier stripped U1's token before it (C01).
        let originLines = world.origin.accessLog(prefix: "/" + Self.horse, count: 1)
        #expect(originLines == ["/\(Self.horse) auth=- inm=- xfh=- fwd=- status=200"])
    }

    @Test func avatarIsStoredOnDiskAndHit() throws {
        let world = try ServeEnvironment()
        defer { world.tearDown() }
        try world.start()
        let first = try world.get("/avatars/u1001.jpg")
        #expect(first.status == 200)
        #expect(first.body == Fixtures.bytes("avatars/u1001.jpg"))
        #expect(first.cacheStatus.forward == "uri-miss")
        #expect(first.cacheStatus.stored)
        let second = try world.get("/avatars/u1001.jpg")
        #expect(second.cacheStatus.hit)
        #expect(second.body == Fixtures.bytes("avatars/u1001.jpg"))
        // Unversioned avatars: at most the origin's 60 s (under the tier's 300 s cap).
        let ttl = Int(second.cacheStatus.parameters["ttl"] ?? "") ?? -1
        #expect((0...60).contains(ttl))
        try world.settle()
        #expect(StateScan.objectFiles(under: world.stateDirectory.appendingPathComponent("disk")).count == 1)
    }

    @Test func receiptsArePartitionedPerUser() throws {
        let world = try ServeEnvironment()
        defer { world.tearDown() }
        try world.start()

        let anonymous = try world.get("/" + Self.receipt)
        #expect(anonymous.status == 401)
        #expect(anonymous.header("WWW-Authenticate") == "Bearer")
        #expect(anonymous.header("Content-Type") == "application/problem+json")
        #expect(anonymous.problemCode == "credentials-required")
        #expect(anonymous.problemDetail == "tier private requires a bearer token")

        let u1 = try world.get("/" + Self.receipt, token: "t1")
        #expect(u1.status == 200)
        #expect(u1.body == Fixtures.bytes(Self.receipt))
        #expect(u1.cacheStatus.stored)
        #expect(u1.header("Cache-Control") == "private, no-store")
        #expect(u1.header("Vary")?.contains("Authorization") == true)

        let u1Again = try world.get("/" + Self.receipt, token: "t1")
        #expect(u1Again.cacheStatus.hit)
        #expect(u1Again.body == Fixtures.bytes(Self.receipt))

        // U2 never gets U1's stored copy: a miss that reaches the origin with U2's token (C02).
        let u2 = try world.get("/" + Self.receipt, token: "t2")
        #expect(u2.status == 200)
        #expect(!u2.cacheStatus.hit)
        #expect(u2.body == Fixtures.bytes(Self.receipt))
        let originLines = world.origin.accessLog(prefix: "/" + Self.receipt, count: 2)
        #expect(originLines == [
            "/\(Self.receipt) auth=Bearer t1 inm=- xfh=- fwd=- status=200",
            "/\(Self.receipt) auth=Bearer t2 inm=- xfh=- fwd=- status=200",
        ])

        let sealed = world.stateDirectory.appendingPathComponent("sealed")
        try world.settle()
        #expect(StateScan.objectFiles(under: sealed).count == 2)

        // Audited per partition: one store per user, different partitions, never a URL.
        let stores = world.auditRecords.filter { $0.route == "receipts" && $0.event == "store" }
        #expect(stores.count == 2)
        #expect(stores.allSatisfy { $0.storage == "encrypted-disk" && $0.url == nil && $0.partition?.count == 64 })
        #expect(Set(stores.compactMap(\.partition)).count == 2)
        #expect(Set(stores.compactMap(\.key)).count == 2)
    }

    @Test func oneTimeIsNeverStored() throws {
        let world = try ServeEnvironment()
        defer { world.tearDown() }
        try world.start()
        for _ in 0..<2 {
            let response = try world.get("/one-time/horse-d29d871c.jpg")
            #expect(response.status == 200)
            #expect(response.body == Fixtures.bytes(Self.horse))
            #expect(!response.cacheStatus.hit)
            #expect(!response.cacheStatus.stored)
            #expect(response.header("Cache-Control") == "no-store")
        }
        #expect(world.origin.accessLog(prefix: "/one-time/", count: 2).count == 2)
        let records = world.auditRecords.filter { $0.route == "one-time" }
        #expect(records.map(\.event) == ["skip", "skip"])
        #expect(records.allSatisfy { $0.storage == "none" })
        try world.settle()
        #expect(StateScan.files(under: world.stateDirectory.appendingPathComponent("disk")).isEmpty)
    }

    @Test func restartKeepsDiskAndShredsSealed() throws {
        let world = try ServeEnvironment()
        defer { world.tearDown() }
        try world.start()
        #expect(try world.get("/" + Self.horse).cacheStatus.stored)
        #expect(try world.get("/" + Self.receipt, token: "t1").cacheStatus.stored)
        #expect(try world.get("/" + Self.receipt, token: "t2").cacheStatus.stored)
        #expect(world.stop() == 0)
        #expect(world.auditRecords.last?.event == "stop")

        try world.start()
        let horse = try world.get("/" + Self.horse)
        #expect(horse.cacheStatus.hit)
        #expect(horse.body == Fixtures.bytes(Self.horse))
        let receipt = try world.get("/" + Self.receipt, token: "t1")
        #expect(!receipt.cacheStatus.hit)
        #expect(receipt.body == Fixtures.bytes(Self.receipt))
        #expect(world.stop() == 0)

        // Both sealed objects of the first run were shredded, each audited.
        let shredded = world.auditRecords.filter { $0.event == "shred" && $0.key != nil }
        #expect(shredded.count >= 2)
        #expect(shredded.allSatisfy { $0.tier == "private" && $0.storage == "encrypted-disk" && $0.url == nil })
        let (result, report) = try world.audit()
        #expect(result.exitCode == 0)
        #expect(report?.clean == true)
        #expect(report?.chain.intact == true)
    }
}
