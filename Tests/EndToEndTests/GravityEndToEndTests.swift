import Foundation
import MediaTestSupport
import Testing

/// Smart crop (`gravity`) against the built binary and a real nginx origin, with the repository's default policies:
/// keyed and audited when not `centre`, a different crop from the centre one, and `gravity=face` refused with a
/// problem that names the allowed values.
@Suite(.enabled(if: NginxOrigin.isAvailable)) struct GravityEndToEndTests {
    @Test func smartCropsAreKeyedAuditedAndBadValuesRefused() throws {
        let world = try ServeEnvironment(originServerConfig: #"location /large/ { add_header Cache-Control "public, max-age=31536000"; }"#,
                                         policy: ServeEnvironment.repositoryDefaultPolicy(originBase:))
        defer { world.tearDown() }
        try world.start()
        let base = "/large/hubble-1000.jpg?w=288&h=72&fit=cover"
        var bodies: [String: [UInt8]] = [:]
        for gravity in ["centre", "attention", "entropy"] {
            let answer = try world.get(base + "&gravity=" + gravity)
            #expect(answer.status == 200, "\(gravity): \(answer.text)")
            #expect(answer.header("Mediactl-Image-Width") == "288", "\(gravity)")
            #expect(answer.header("Mediactl-Image-Height") == "72", "\(gravity)")
            bodies[gravity] = answer.body
        }
        #expect(Set(bodies.values).count == 3)
        // gravity=centre is the plain cover crop: the same stored object.
        #expect(try world.get(base).header("Cache-Status")?.hasPrefix("mediactl; hit") == true)
        let refused = try world.get(base + "&gravity=face")
        #expect(refused.status == 400)
        #expect(refused.header("Content-Type") == "application/problem+json")
        #expect(refused.problemCode == "variant-not-allowed")
        #expect(refused.problemDetail == "gravity=face is not allowed: gravity must be centre, attention or entropy")
        #expect(world.stop() == 0)
        let transforms = world.auditRecords.filter { $0.event == "store" && $0.transform != nil }.compactMap(\.transform)
        #expect(transforms == ["w=288,h=72,fit=cover,fmt=jpeg,q=80", "w=288,h=72,fit=cover,gravity=attention,fmt=jpeg,q=80",
                               "w=288,h=72,fit=cover,gravity=entropy,fmt=jpeg,q=80"])
        let (result, report) = try world.audit()
        #expect(result.exitCode == 0, "\(result.stdout)\(result.stderr)")
        #expect(report?.clean == true)
    }
}
