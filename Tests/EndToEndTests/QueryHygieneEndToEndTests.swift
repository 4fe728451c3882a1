import Foundation
import MediaTestSupport
import Testing

/// Query hygiene with the repository's default policies (`ignoredQueryParameters` on `public` and `avatar`,
/// `passQueryParameters: ["v"]` on `public`), against the built binary and a real nginx origin.
@Suite(.enabled(if: NginxOrigin.isAvailable)) struct QueryHygieneEndToEndTests {
    func world() throws -> ServeEnvironment {
        let world = try ServeEnvironment(policy: ServeEnvironment.repositoryDefaultPolicy(originBase:))
        try world.start()
        return world
    }

    @Test func trackingParametersAreDroppedAndTheVersionIsKeyedAndPassed() throws {
        let world = try world()
        defer { world.tearDown() }
        let path = "/catalog/camera-74877ec7.jpg"
        let first = try world.get(path + "?w=144&utm_source=newsletter&utm_medium=email")
        #expect(first.status == 200)
        #expect(first.header("Cache-Status")?.contains("stored") == true)
        let again = try world.get(path + "?fbclid=IwAR0&w=144&gclid=Cj0")
        #expect(again.status == 200)
        #expect(again.header("Cache-Status")?.hasPrefix("mediactl; hit") == true)
        #expect(again.body == first.body)
        // Cache-busting v: a new object, fetched with v.
        let busted = try world.get(path + "?w=144&v=3&utm_campaign=x")
        #expect(busted.status == 200)
        #expect(busted.header("Cache-Status")?.contains("fwd=uri-miss") == true)
        #expect(world.origin.accessLog(prefix: "/catalog/camera-74877ec7.jpg", count: 2).map { $0.prefix { $0 != " " } }
            == ["/catalog/camera-74877ec7.jpg", "/catalog/camera-74877ec7.jpg?v=3"])
    }

    @Test func anyOtherParameterIsRefusedByName() throws {
        let world = try world()
        defer { world.tearDown() }
        let refused = try world.get("/catalog/camera-74877ec7.jpg?w=144&utm_source=x&ref=home")
        #expect(refused.status == 400)
        #expect(refused.header("Content-Type") == "application/problem+json")
        #expect(refused.text.contains(#""detail":"ref=home is not allowed: a parameter must be one of w, h, fit, dpr, q, fmt, gravity, profile, info, v""#))
        let zero = try world.get("/catalog/camera-74877ec7.jpg?w=0200")
        #expect(zero.status == 400)
        #expect(zero.text.contains(#""detail":"w=0200 is not allowed: w must be an integer from 1 to 999999999 in plain digits (no sign, leading zero, fraction or exponent)""#))
        #expect(world.origin.accessLog(prefix: "/catalog/", count: 0).isEmpty)
    }
}
