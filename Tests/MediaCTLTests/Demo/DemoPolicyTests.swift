import Foundation
import MediaAudit
import MediaPolicy
import Testing

@testable import MediaCTL

@Suite struct DemoPolicyTests {
    /// The repository's `Policies/` folder, next to `Tests/`.
    static let repositoryPolicies = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Policies").path

    @Test func builtInPolicyIsTheDefaultPolicy() throws {
        let builtIn = try PolicyLoader().load(sources: [.init(name: DemoPolicy.sourceName, text: DemoPolicy.text)])
        let shipped = try PolicyLoader().load(directory: Self.repositoryPolicies)
        #expect(builtIn.tiers == shipped.tiers)
        func strip(_ routes: [MediaPolicy.Route]) -> [MediaPolicy.Route] {
            routes.map { route in
                var copy = route
                copy.file = ""
                return copy
            }
        }
        #expect(strip(builtIn.routes) == strip(shipped.routes))
    }

    @Test func originsPointAtTheEmbeddedOrigin() throws {
        let policies = try DemoPolicy.policies(originBase: "http://127.0.0.1:4321")
        #expect(policies.routes.map(\.origin) == [
            "http://127.0.0.1:4321/catalog/", "http://127.0.0.1:4321/large/", "http://127.0.0.1:4321/avatars/",
            "http://127.0.0.1:4321/uploads/", "http://127.0.0.1:4321/receipts/", "http://127.0.0.1:4321/one-time/",
        ])
        #expect(policies.routes.map(\.name) == DemoPolicy.routes)
    }
}
