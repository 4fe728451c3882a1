import Foundation
import Testing

/// Cases C01, C03–C06 and C14 (CASES.md) end to end: the real binary, a real nginx origin that
/// reproduces each fault (``FieldCaseOrigin``), and the origin's access log as evidence.
@Suite(.enabled(if: NginxOrigin.isAvailable, "nginx is installed by scripts/test"), .serialized)
struct FieldCaseTests {
    static let horse = Fixtures.bytes("catalog/horse-d29d871c.jpg")
    static let receipt = Fixtures.bytes("receipts/r-7731.png")

    func world() throws -> ServeEnvironment {
        let world = try ServeEnvironment(
            extraRoutes: FieldCaseOrigin.routes, originServerConfig: FieldCaseOrigin.serverConfig,
            originHTTPConfig: FieldCaseOrigin.httpConfig)
        do { try world.start() } catch {
            world.tearDown()
            throw error
        }
        return world
    }

    func originLines(_ world: ServeEnvironment, _ prefix: String, count: Int) -> [String] {
        world.origin.accessLog(prefix: prefix, count: count)
    }

    /// C01: U1's token never reaches the origin of a shared tier, so ANON and U2 can never get U1's answer.
    @Test func c01AuthorizationOnASharedTier() throws {
        let world = try world()
        defer { world.tearDown() }
        let u1 = try world.get("/c01/horse-d29d871c.jpg", token: "t1")
        #expect(u1.status == 200)
        #expect(u1.body == Self.horse)
        let anonymous = try world.get("/c01/horse-d29d871c.jpg")
        let u2 = try world.get("/c01/horse-d29d871c.jpg", token: "t2")
        for response in [anonymous, u2] {
            #expect(response.status == 200)
            #expect(response.body == Self.horse)
            #expect(response.cacheStatus.hit)
        }
        #expect(originLines(world, "/c01/", count: 1) == ["/c01/horse-d29d871c.jpg auth=- inm=- xfh=- fwd=- status=200"])
    }

    /// C02: `Vary: Authorization` on a private route: U2 misses after U1; neither token is written anywhere.
    @Test func c02VaryAuthorization() throws {
        let world = try world()
        defer { world.tearDown() }
        let (u1, u2) = (NginxOrigin.longTokenU1, NginxOrigin.longTokenU2)
        let first = try world.get("/c02/r-7731.png", token: u1)
        #expect(first.status == 200)
        #expect(first.cacheStatus.stored)
        #expect(try world.get("/c02/r-7731.png", token: u1).cacheStatus.hit)
        let other = try world.get("/c02/r-7731.png", token: u2)
        #expect(other.status == 200)
        #expect(other.body == Self.receipt)
        #expect(!other.cacheStatus.hit)
        #expect(originLines(world, "/c02/", count: 2) == [
            "/c02/r-7731.png auth=Bearer \(u1) inm=- xfh=- fwd=- status=200",
            "/c02/r-7731.png auth=Bearer \(u2) inm=- xfh=- fwd=- status=200",
        ])
        try world.settle()
        #expect(StateScan.filesContaining([Array(u1.utf8), Array(u2.utf8)], under: world.stateDirectory) == [])
    }

    /// C03: U1, U2 and ANON at once on a slow private URL: never joined, each gets its own answer.
    @Test func c03CoalescingNeverJoinsCredentials() throws {
        let world = try world()
        defer { world.tearDown() }
        let tokens: [String?] = ["t1", "t2", nil]
        let results = ConcurrentRequests.run(count: tokens.count) { index in
            try world.get("/c03/r-7732.jpg", token: tokens[index])
        }
        #expect(results.map { $0?.status } == [200, 403, 401])
        #expect(results[0]?.body == Fixtures.bytes("receipts/r-7732.jpg"))
        #expect(results[1]?.problemCode == "origin-status-403")
        #expect(results[2]?.header("WWW-Authenticate") == "Bearer")
        #expect(results[2]?.problemCode == "credentials-required")
        // Two origin requests (ANON is refused before the origin), each with its own token.
        #expect(Set(originLines(world, "/c03/", count: 2)) == [
            "/c03/r-7732.jpg auth=Bearer t1 inm=- xfh=- fwd=- status=200",
            "/c03/r-7732.jpg auth=Bearer t2 inm=- xfh=- fwd=- status=403",
        ])
    }

    /// C04: a 403 with `max-age=30` to a bad token is never stored; U1 reaches the origin and gets 200.
    @Test func c04ErrorAnswersAreNeverCachedForOthers() throws {
        let world = try world()
        defer { world.tearDown() }
        let bad = try world.get("/c04/r-7731.png", token: "bad")
        #expect(bad.status == 403)
        #expect(bad.problemCode == "origin-status-403")
        let u1 = try world.get("/c04/r-7731.png", token: "t1")
        #expect(u1.status == 200)
        #expect(u1.body == Self.receipt)
        let badAgain = try world.get("/c04/r-7731.png", token: "bad")
        #expect(badAgain.status == 403)
        #expect(originLines(world, "/c04/", count: 3).map { $0.hasSuffix("status=403") } == [true, false, true])
        #expect(world.auditRecords.filter { $0.route == "c04" }.map(\.event) == ["skip", "store", "skip"])
    }

    /// C05: `private` on a shared tier is not stored (`private-in-shared-cache`).
    @Test func c05PrivateWithoutAPrincipal() throws {
        let world = try world()
        defer { world.tearDown() }
        for _ in 0..<2 {
            let response = try world.get("/c05/horse-d29d871c.jpg")
            #expect(response.status == 200)
            #expect(response.body == Self.horse)
            #expect(!response.cacheStatus.hit)
            #expect(!response.cacheStatus.stored)
        }
        let records = world.auditRecords.filter { $0.route == "c05" }
        #expect(records.map(\.event) == ["skip", "skip"])
        #expect(records.map(\.reason) == ["private-in-shared-cache", "private-in-shared-cache"])
        #expect(records.allSatisfy { $0.partition == nil })
        #expect(originLines(world, "/c05/", count: 2).count == 2)
    }
}
