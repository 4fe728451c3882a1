import Foundation
import MediaTestSupport
import Testing

/// Negative caching with the repository's default policies (`errorTTL` on `public` and `avatar`), against the built
/// binary and a real nginx origin: a missing image reaches nginx once per `errorTTL`, a refused non-image too, a
/// 403 every time; `mediactl audit` reads the stored errors as clean, each `store` with its status.
@Suite(.enabled(if: NginxOrigin.isAvailable)) struct NegativeCachingEndToEndTests {
    static let originConfig = """
    location = /catalog/page.jpg { default_type text/html; return 200 "<html><body>not an image</body></html>"; }
    location = /catalog/forbidden.jpg { return 403; }
    """

    @Test func errorsAreStoredForTheirLifetimeAndAudited() throws {
        let world = try ServeEnvironment(originServerConfig: Self.originConfig, policy: ServeEnvironment.repositoryDefaultPolicy(originBase:))
        defer { world.tearDown() }
        try world.start()
        let first = try world.get("/catalog/nope.jpg")
        #expect(first.status == 404)
        #expect(first.header("Content-Type") == "application/problem+json")
        #expect(first.header("Cache-Control") == "max-age=60")
        #expect(first.header("Cache-Status") == "mediactl; fwd=uri-miss; fwd-status=404; ttl=60; stored; detail=disk")
        #expect(first.text.contains(#""code":"origin-status-404""#))
        let again = try world.get("/catalog/nope.jpg?utm_source=x")
        #expect(again.status == 404)
        #expect(again.header("Cache-Status")?.hasPrefix("mediactl; hit; ttl=") == true)
        #expect(again.body == first.body)
        // A variant of the missing source: the source's negative entry answers, nginx is not asked.
        #expect(try world.get("/catalog/nope.jpg?w=144").status == 404)

        let page = try world.get("/catalog/page.jpg")
        #expect(page.status == 502)
        #expect(page.header("Cache-Status") == "mediactl; fwd=uri-miss; fwd-status=200; ttl=60; stored; detail=disk")
        #expect(try world.get("/catalog/page.jpg").header("Cache-Status")?.hasPrefix("mediactl; hit; ttl=") == true)

        #expect(try world.get("/catalog/forbidden.jpg").status == 403)
        #expect(try world.get("/catalog/forbidden.jpg").status == 403)

        #expect(world.origin.accessLog(prefix: "/catalog/nope.jpg", count: 1).count == 1)
        #expect(world.origin.accessLog(prefix: "/catalog/page.jpg", count: 1).count == 1)
        #expect(world.origin.accessLog(prefix: "/catalog/forbidden.jpg", count: 2).count == 2)

        #expect(world.stop() == 0)
        let log = try String(contentsOf: world.stateDirectory.appendingPathComponent("audit/audit.jsonl"), encoding: .utf8)
        let stores = log.split(separator: "\n").filter { $0.contains(#""event":"store""#) }
        #expect(stores.count == 2)
        #expect(stores.allSatisfy { $0.contains(#""reason":"error-ttl""#) && $0.contains(#""ttl":60"#) })
        #expect(stores.map { $0.contains(#""status":404"#) } == [true, false])
        #expect(stores.map { $0.contains(#""status":502"#) } == [false, true])
        let (result, report) = try world.audit()
        #expect(result.exitCode == 0, "\(result.stdout)\(result.stderr)")
        #expect(report?.clean == true)
        #expect(report?.violations.isEmpty == true)
        #expect(report?.row("public", "disk")?.stored == 2)
    }
}
