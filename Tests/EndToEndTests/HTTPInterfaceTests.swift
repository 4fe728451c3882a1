import Foundation
import MediaTestSupport
import Testing

/// The HTTP interface of `mediactl serve` (docs/service-behaviour.md): methods, conditionals, request
/// `Cache-Control`, internal endpoints and `serve.json`.
@Suite(.enabled(if: NginxOrigin.isAvailable, "nginx is installed by scripts/test"), .serialized)
struct HTTPInterfaceTests {
    static let horse = "/catalog/horse-d29d871c.jpg"

    @Test func methodsConditionalsAndEndpoints() throws {
        let world = try ServeEnvironment()
        defer { world.tearDown() }
        try world.start()

        let info = try #require(world.serve?.serveInfo)
        #expect(info.listen == "127.0.0.1:\(world.port)")
        #expect(info.pid == world.serve?.pid)
        #expect(!info.adminToken.isEmpty)

        let stored = try world.get(Self.horse)
        let etag = try #require(stored.header("ETag"))
        let head = try RawHTTP.request(port: world.port, "HEAD", Self.horse)
        #expect(head.status == 200)
        #expect(head.body.isEmpty)
        #expect(head.header("Content-Length") == "5914")
        #expect(head.cacheStatus.hit)

        let notModified = try world.get(Self.horse, headers: [("If-None-Match", etag)])
        #expect(notModified.status == 304)
        #expect(notModified.body.isEmpty)
        #expect(notModified.header("ETag") == etag)

        let onlyIfCached = try world.get("/catalog/coins-1fea11f1.jpg", headers: [("Cache-Control", "only-if-cached")])
        #expect(onlyIfCached.status == 504)
        #expect(onlyIfCached.header("Content-Type") == "application/problem+json")
        #expect(onlyIfCached.problemCode == "only-if-cached")
        #expect(!world.origin.accessLog.contains { $0.hasPrefix("/catalog/coins") })

        let post = try RawHTTP.request(port: world.port, "POST", Self.horse, headers: [("Content-Length", "0")])
        #expect(post.status == 405)
        #expect(post.problemCode == "method-not-allowed")
        #expect(post.problemDetail == "route catalog answers GET and HEAD only")

        let noRoute = try world.get("/nowhere/x.jpg")
        #expect(noRoute.status == 404)
        #expect(noRoute.problemCode == "no-route")

        // The public port answers 404 for the admin paths; the admin listener answers them.
        for path in ["/_mediactl/health", "/_mediactl/metrics"] {
            let refused = try world.get(path)
            #expect(refused.status == 404)
            #expect(refused.problemCode == "no-route")
            #expect(refused.problemDetail == "/_mediactl/ is answered on the admin listener only (serve --admin-listen)")
        }
        let health = try world.admin("/_mediactl/health")
        #expect(health.status == 200)
        #expect(health.header("Content-Type")?.hasPrefix("application/json") == true)
        let healthJSON = try JSONSerialization.jsonObject(with: Data(health.body)) as? [String: Any]
        #expect(healthJSON?["status"] as? String == "ok")
        #expect(healthJSON?["routes"] as? [String] == ["catalog", "avatars", "receipts", "one-time", "hostile"])

        let metrics = try world.admin("/_mediactl/metrics")
        #expect(metrics.status == 200)
        #expect(metrics.header("Content-Type")?.hasPrefix("text/plain") == true)
        #expect(metrics.text.contains("# TYPE"))

        // Only the first GET reached the origin.
        #expect(world.origin.accessLog(prefix: Self.horse, count: 1).count == 1)

        // SIGTERM: exit 0, serve.json removed, stop record last.
        #expect(world.stop() == 0)
        #expect(!FileManager.default.fileExists(atPath: world.stateDirectory.appendingPathComponent("serve.json").path))
        #expect(world.auditRecords.last?.event == "stop")
    }
}
