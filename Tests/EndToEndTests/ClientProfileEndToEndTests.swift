import Foundation
import MediaTestSupport
import Testing

/// Client profiles for native apps against the built binary and a real nginx origin: the repository's default
/// policies with `clientProfiles` on the `public` tier. `profile=NAME` gets the profile's first declared format with
/// no `Vary: Accept` (the URL names the format), stored as that format's variant; an unknown profile is refused.
@Suite(.enabled(if: NginxOrigin.isAvailable)) struct ClientProfileEndToEndTests {
    static func policy(originBase: String) throws -> String {
        let text = try ServeEnvironment.repositoryDefaultPolicy(originBase: originBase)
        let declared = #""formats": ["jpeg", "webp", "avif", "png"],"#
        guard let range = text.range(of: declared) else { throw HeadlessChromium.Failure("Policies/default.json changed shape") }
        return text.replacingCharacters(in: range, with: declared
            + #" "clientProfiles": { "ios17": ["avif", "webp", "jpeg"], "android12": ["webp", "jpeg"] },"#)
    }

    @Test func profilesChooseTheFormatWithoutVary() throws {
        let world = try ServeEnvironment(originServerConfig: #"location /large/ { add_header Cache-Control "public, max-age=31536000"; }"#,
                                         policy: Self.policy(originBase:))
        defer { world.tearDown() }
        try world.start()
        // Coil, Glide and SDWebImage send no Accept or image/*: the profile decides.
        let cases: [(query: String, type: String)] = [
            ("w=144&profile=ios17", "image/avif"), ("w=144&profile=android12", "image/webp"),
            ("w=1152&profile=ios17", "image/webp"),
        ]
        for (query, type) in cases {
            let answer = try world.get("/large/hubble-1000.jpg?" + query, headers: [("Accept", "image/*,*/*;q=0.8")])
            #expect(answer.status == 200, "\(query): \(answer.text)")
            #expect(answer.header("Content-Type") == type, "\(query)")
            #expect(answer.header("Vary") == nil, "\(query)")
        }
        // Keyed on the format it resolves to: fmt=avif is the object profile=ios17 stored.
        #expect(try world.get("/large/hubble-1000.jpg?w=144&fmt=avif").header("Cache-Status")?.hasPrefix("mediactl; hit") == true)
        let refused = try world.get("/large/hubble-1000.jpg?w=144&profile=ios16")
        #expect(refused.status == 400)
        #expect(refused.problemDetail == "profile=ios16 is not allowed: profile must be one of android12, ios17")
        let policyCheck = try MediactlProcess.run(["policy", "check", "--policies", world.policiesDirectory.path])
        #expect(policyCheck.exitCode == 0, "\(policyCheck.stderr)")
        #expect(policyCheck.stdout.contains(", profiles android12 webp>jpeg, ios17 avif>webp>jpeg"), "\(policyCheck.stdout)")
    }
}
