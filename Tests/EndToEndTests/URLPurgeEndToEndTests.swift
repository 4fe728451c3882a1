import Foundation
import MediaTestSupport
import Testing

/// `mediactl purge --url` with the repository's default policies, against the built binary and a real nginx origin:
/// one URL and its derived images go (nginx is asked again), a URL that only starts the same stays, the audit is
/// clean and its summary names the route, never the URL; the same through `--replicas`.
@Suite(.enabled(if: NginxOrigin.isAvailable), .serialized) struct URLPurgeEndToEndTests {
    @Test func oneURLAndItsVariantsAreFetchedAgain() throws {
        let world = try ServeEnvironment(policy: ServeEnvironment.repositoryDefaultPolicy(originBase:))
        defer { world.tearDown() }
        try world.start()
        for path in ["/catalog/coffee-237a7131.jpg", "/catalog/coffee-237a7131.jpg?w=144", "/catalog/horse-d29d871c.jpg"] {
            #expect(try world.get(path).status == 200, "\(path)")
        }
        let state = world.stateDirectory.path
        let purged = try MediactlProcess.run(["purge", "--url", "/catalog/coffee-237a7131.jpg?w=72", "--state-dir", state])
        #expect(purged.exitCode == 0, "\(purged.stderr)")
        #expect(purged.stdout == "purged 2 entries\n")
        #expect(try world.get("/catalog/horse-d29d871c.jpg").header("Cache-Status")?.hasPrefix("mediactl; hit") == true)
        #expect(try world.get("/catalog/coffee-237a7131.jpg?w=144").header("Cache-Status")?.hasPrefix("mediactl; fwd=uri-miss") == true)
        #expect(world.origin.accessLog(prefix: "/catalog/coffee-237a7131.jpg", count: 2).count == 2)

        // A query the tier refuses is refused as a request for it would be (utm_x is ignored, ref is not).
        let refused = try MediactlProcess.run(["purge", "--url", "/catalog/coffee-237a7131.jpg?utm_x=1&ref=home", "--state-dir", state])
        #expect(refused.exitCode == 2)
        #expect(refused.stderr.hasSuffix(" refused the purge: 400 invalid-url: variant-not-allowed: ref=home is not allowed: a parameter must be one of w, h, fit, dpr, q, fmt, gravity, profile, info, v\n"))
        #expect(try world.get("/catalog/coffee-237a7131.jpg?utm_x=1&ref=home").status == 400)
        let unknown = try MediactlProcess.run(["purge", "--url", "/nowhere/a.jpg", "--state-dir", state])
        #expect(unknown.exitCode == 2)
        #expect(unknown.stderr.hasPrefix("mediactl: the service at "))
        #expect(unknown.stderr.hasSuffix(" refused the purge: 404 unknown-route: no route is mounted at /nowhere/a.jpg\n"))

        let fleet = world.root.appendingPathComponent("fleet.txt").path
        try Data("http://127.0.0.1:\(world.adminPort) \(state)\n".utf8).write(to: URL(fileURLWithPath: fleet))
        let replicas = try MediactlProcess.run(["purge", "--url", "/catalog/horse-d29d871c.jpg", "--replicas", fleet])
        #expect(replicas.exitCode == 0, "\(replicas.stderr)")
        #expect(replicas.stdout == "http://127.0.0.1:\(world.adminPort): purged 1 entry\ntotal: purged 1 entry on 1 of 1 replicas\n")
        #expect(world.stop() == 0)

        let records = AuditLine.read(directory: world.stateDirectory.appendingPathComponent("audit"))
        let summaries = records.filter { $0.reason == "purge-url" && $0.key == nil }
        #expect(summaries.map(\.route) == ["catalog", "catalog"])
        #expect(summaries.map(\.count) == [2, 1])
        #expect(summaries.map(\.url) == [nil, nil])
        let audit = try world.audit()
        #expect(audit.result.exitCode == 0, "\(audit.result.stdout)")
    }

    /// The repository's default policies, with `ignoredQueryParameters` on the partitioned `private` tier too and a
    /// tier without `variants` (`flat`, at `/flat/` on the catalog's origin folder).
    static func campaignPolicy(originBase: String) throws -> String {
        try ServeEnvironment.repositoryDefaultPolicy(originBase: originBase)
            .replacingOccurrences(of: #""partition": "credential", "maxTTL": 600,"#,
                                  with: #""partition": "credential", "maxTTL": 600, "ignoredQueryParameters": ["utm_*", "fbclid"],"#)
            .replacingOccurrences(of: #"    "no-store":{ "storage": "none" } },"#, with: #"""
                "no-store":{ "storage": "none" },
                "flat":    { "storage": "disk", "maxTTL": 3600, "ignoredQueryParameters": ["utm_*", "fbclid", "gclid"] } },
            """#)
            .replacingOccurrences(of: #"  "routes": ["#, with: """
              "routes": [
                { "name": "flat", "mount": "/flat/", "origin": "\(originBase)/catalog/", "tier": "flat" },
            """)
    }

    /// A takedown URL copied from a campaign link purges what clients are served from it: on a tier with variants, one
    /// without, and a partitioned one (every credential's copy); nginx is asked again for each.
    @Test func aCampaignURLPurgesTheEntryItsClientsAreServed() throws {
        let world = try ServeEnvironment(policy: Self.campaignPolicy(originBase:))
        defer { world.tearDown() }
        try world.start()
        let cases: [(served: String, purge: String, token: String?, purged: String)] = [
            ("/catalog/coffee-237a7131.jpg?w=144&utm_source=mail", "/catalog/coffee-237a7131.jpg?fbclid=IwAR0&utm_source=x",
             nil, "purged 2 entries\n"),
            ("/flat/horse-d29d871c.jpg?utm_medium=email", "/flat/horse-d29d871c.jpg?gclid=Cj0&&utm_source=y",
             nil, "purged 1 entry\n"),
            ("/receipts/r-7731.png?fbclid=abc", "/receipts/r-7731.png?utm_campaign=z", "t1", "purged 2 entries\n"),
        ]
        for (served, _, token, _) in cases {
            #expect(try world.get(served, token: token).status == 200, "\(served)")
            #expect(try world.get(served, token: token).header("Cache-Status")?.hasPrefix("mediactl; hit") == true, "\(served)")
        }
        #expect(try world.get("/receipts/r-7731.png", token: "t2").status == 200)
        let state = world.stateDirectory.path
        for (served, purge, token, purged) in cases {
            let result = try MediactlProcess.run(["purge", "--url", purge, "--state-dir", state])
            #expect(result.exitCode == 0, "\(result.stderr)")
            #expect(result.stdout == purged, "\(purge)")
            #expect(try world.get(served, token: token).header("Cache-Status")?.hasPrefix("mediactl; fwd=uri-miss") == true,
                    "\(served)")
        }
        #expect(try world.get("/receipts/r-7731.png", token: "t2").header("Cache-Status")?.hasPrefix("mediactl; fwd=uri-miss") == true)
        // Each was fetched once to be stored and once after its purge (the receipt once per credential, twice).
        #expect(world.origin.accessLog(prefix: "/catalog/coffee-237a7131.jpg", count: 2).count == 2)
        #expect(world.origin.accessLog(prefix: "/catalog/horse-d29d871c.jpg", count: 2).count == 2)
        #expect(world.origin.accessLog(prefix: "/receipts/r-7731.png", count: 4).count == 4)
        #expect(world.stop() == 0)
        let audit = try world.audit()
        #expect(audit.result.exitCode == 0, "\(audit.result.stdout)")
    }
}
