import Foundation
import MediaTestSupport
import Testing

/// The nginx front documented in docs/scale-out.md, checked with `nginx -t` and run in front of three
/// real replicas: a key always reaches the same replica (its second request is a hit), each object is
/// fetched from the origin once across the fleet, a credential's partition stays on one replica, and
/// the admin endpoints are not reachable through the front.
@Suite(.enabled(if: NginxOrigin.isAvailable, "nginx is installed by scripts/test"), .serialized)
struct ScaleOutFrontTests {
    @Test func theDocumentedConfigurationIsInTheGuideVerbatim() throws {
        let config = try String(contentsOf: ScaleOutFront.documentedConfigURL, encoding: .utf8)
        let guide = try String(
            contentsOf: MediactlProcess.packageRoot.appendingPathComponent("docs/scale-out.md"), encoding: .utf8)
        #expect(guide.contains("```nginx\n" + config + "```\n"))
    }

    @Test func nginxAcceptsTheDocumentedConfiguration() throws {
        let front = try ScaleOutFront(replicaPorts: [18_001, 18_002, 18_003])
        defer { front.stop() }
        let result = try front.test()
        #expect(result.status == 0, "nginx -t: \(result.stderr)")
    }

    @Test func eachKeyStaysOnOneReplicaBehindTheDocumentedFront() throws {
        let world = try ServeEnvironment()
        defer { world.tearDown() }
        try world.start()
        let others = try (0..<2).map { index in
            try MediactlProcess(policiesDirectory: world.policiesDirectory,
                                stateDirectory: world.root.appendingPathComponent("state-\(index + 2)"))
        }
        defer { others.forEach { $0.cleanUp() } }
        let front = try ScaleOutFront(replicaPorts: [world.port] + others.map(\.port))
        defer { front.stop() }
        #expect(try front.test().status == 0)
        try front.start()

        let images = ["astronaut-4530ade2.jpg", "camera-74877ec7.jpg", "chelsea-5d40df37.jpg", "coffee-237a7131.jpg",
                      "coins-1fea11f1.jpg", "horse-d29d871c.jpg", "hubble-b981f74f.jpg", "motorcycle-f14d29f1.jpg",
                      "rocket-cfc075d1.jpg"]
        for round in 0..<2 {
            for image in images {
                let response = try RawHTTP.get(port: front.port, "/catalog/" + image)
                #expect(response.status == 200)
                #expect(response.body == Fixtures.bytes("catalog/" + image))
                if round == 0 {
                    #expect(response.cacheStatus.stored, "\(image): \(response.header("Cache-Status") ?? "-")")
                } else {
                    #expect(response.header("Cache-Status")?.hasPrefix("mediactl; hit") == true, "\(image) moved replica")
                }
            }
        }
        // One origin fetch per object across the fleet.
        for image in images {
            #expect(world.origin.accessLog(prefix: "/catalog/\(image) ", count: 1).count == 1, "\(image)")
        }
        // A credential's partition stays on one replica: its second request is a hit.
        let receipt = "/receipts/r-7731.png"
        let first = try RawHTTP.get(port: front.port, receipt, token: NginxOrigin.longTokenU1)
        #expect(first.status == 200)
        #expect(first.header("Cache-Control") == "private, no-store")
        let again = try RawHTTP.get(port: front.port, receipt, token: NginxOrigin.longTokenU1)
        #expect(again.header("Cache-Status")?.hasPrefix("mediactl; hit") == true)
        #expect(try RawHTTP.get(port: front.port, receipt).status == 401)

        #expect(try RawHTTP.get(port: front.port, "/_mediactl/health").status == 404)
        #expect(try RawHTTP.get(port: front.port, "/_mediactl/metrics").status == 404)
    }
}
