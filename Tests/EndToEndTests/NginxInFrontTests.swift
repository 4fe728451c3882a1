import Foundation
import MediaTestSupport
import Testing

/// nginx `proxy_cache` in front of `mediactl serve` (docs/bff-integration.md): given mediactl's
/// downstream headers, nginx caches public images and never private ones.
@Suite(.enabled(if: NginxOrigin.isAvailable, "nginx is installed by scripts/test"), .serialized)
struct NginxInFrontTests {
    @Test func frontCachesPublicImagesAndNeverReceipts() throws {
        let world = try ServeEnvironment()
        defer { world.tearDown() }
        try world.start()
        let front = try NginxFront(upstreamPort: world.port)
        defer { front.stop() }

        let horse = Fixtures.bytes("catalog/horse-d29d871c.jpg")
        let first = try RawHTTP.get(port: front.port, "/catalog/horse-d29d871c.jpg")
        #expect(first.status == 200)
        #expect(first.body == horse)
        #expect(first.header("X-Cache-Status") == "MISS")
        let second = try RawHTTP.get(port: front.port, "/catalog/horse-d29d871c.jpg")
        #expect(second.status == 200)
        #expect(second.body == horse)
        #expect(second.header("X-Cache-Status") == "HIT")

        let receipt = Fixtures.bytes("receipts/r-7731.png")
        var receiptCacheStatuses: [String] = []
        for token in ["t1", "t1", "t2", "t1"] {
            let response = try RawHTTP.get(port: front.port, "/receipts/r-7731.png", token: token)
            #expect(response.status == 200)
            #expect(response.body == receipt)
            #expect(response.header("Cache-Control") == "private, no-store")
            receiptCacheStatuses.append(response.header("X-Cache-Status") ?? "")
        }
        #expect(receiptCacheStatuses.allSatisfy { $0 == "MISS" || $0 == "BYPASS" })
        // Without a token the front never answers from a cached receipt: mediactl says 401.
        let anonymous = try RawHTTP.get(port: front.port, "/receipts/r-7731.png")
        #expect(anonymous.status == 401)
        #expect(anonymous.header("WWW-Authenticate") == "Bearer")

        // The admin endpoints are not exposed through the front nor on mediactl's public port; they answer on its
        // admin listener.
        #expect(try RawHTTP.get(port: front.port, "/_mediactl/health").status == 404)
        #expect(try RawHTTP.get(port: world.port, "/_mediactl/health").status == 404)
        #expect(try RawHTTP.get(port: world.adminPort, "/_mediactl/health").status == 200)

        // nginx's cache folder holds the catalog image and no receipt byte.
        #expect(StateScan.filesContaining(Fixtures.slices(of: horse), under: front.cacheDirectory).count == 1)
        #expect(StateScan.filesContaining(Fixtures.slices(of: receipt), under: front.cacheDirectory) == [])
    }
}
