import Foundation
import MediaTestSupport
import Testing

/// `?info=1` against the built binary and a real nginx origin, with the repository's default policies: the source's
/// description as JSON (upright size, format, alpha, frames, dominant colour, ThumbHash), stored and audited like a
/// variant (`derivedFrom`, `transform: info=1`), a hit after, and a bad value refused with a problem naming the rule.
@Suite(.enabled(if: NginxOrigin.isAvailable)) struct ImageInfoEndToEndTests {
    @Test func infoIsServedStoredAndAudited() throws {
        let world = try ServeEnvironment(originServerConfig: #"location /large/ { add_header Cache-Control "public, max-age=31536000"; }"#,
                                         policy: ServeEnvironment.repositoryDefaultPolicy(originBase:))
        defer { world.tearDown() }
        try world.start()
        let first = try world.get("/large/hubble-1000.jpg?info=1")
        #expect(first.status == 200, "\(first.text)")
        #expect(first.header("Content-Type") == "application/json")
        #expect(first.text == ##"{"width":1000,"height":872,"format":"jpeg","hasAlpha":false,"frames":1,"dominantColor":"#0b0d0b","thumbHash":"BfgBBoAHZWu5FZi1UqljmYbUpq5ggBs="}"##)
        #expect(first.header("X-Content-Type-Options") == "nosniff")
        let hit = try world.get("/large/hubble-1000.jpg?info=1")
        #expect(hit.header("Cache-Status")?.hasPrefix("mediactl; hit") == true)
        #expect(hit.body == first.body)
        let refused = try world.get("/large/hubble-1000.jpg?info=1&fmt=auto")
        #expect(refused.status == 400)
        #expect(refused.header("Content-Type") == "application/problem+json")
        #expect(refused.problemCode == "variant-not-allowed")
        #expect(refused.problemDetail == "info=1&fmt=auto is not allowed: info=1 takes no other variant parameter: it describes the source")
        #expect(world.stop() == 0)
        let stores = world.auditRecords.filter { $0.event == "store" }
        #expect(stores.map(\.transform) == [nil, "info=1"])
        #expect(stores[1].derivedFrom == stores[0].key)
        let (result, report) = try world.audit()
        #expect(result.exitCode == 0, "\(result.stdout)\(result.stderr)")
        #expect(report?.clean == true)
    }
}
