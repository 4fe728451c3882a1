import Foundation
import HTTPCaching
import MediaService
import MediaSigning
import MediaTestSupport
import Testing

@testable import MediaCTL

/// `mediactl inspect` of a signed URL (docs/signed-urls.md): the verdict, key id, expiry and partition, then the origin
/// request the service would make, with its service token and the subject; never a secret, the signature or the subject.
@Suite struct InspectSignedURLTests {
    static let secret = Array(UInt8(0)...UInt8(31))
    static let now: Double = 1_798_761_300

    struct World {
        let folder: TemporaryDirectory
        let policies: String
        let state: String
        init() throws {
            folder = try TemporaryDirectory()
            policies = folder.path + "/policies"
            state = folder.path + "/state"
            try FileManager.default.createDirectory(atPath: policies + "/keys", withIntermediateDirectories: true)
            try FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: true)
            try """
            { "tiers": { "signed": { "storage": "memory", "cache": "private", "credentials": "strip", "partition": "credential",
                                     "maxTTL": 600, "variants": { "widths": [72, 144], "formats": ["png"] },
                                     "signedURLs": { "keys": "keys/r.keys" } } },
              "routes": [ { "name": "receipts", "mount": "/receipts/", "origin": "http://origin.test/r/", "tier": "signed",
                            "originAuthorization": { "bearerFile": "keys/o.token" }, "subjectHeader": "Mediactl-Subject" } ] }
            """.write(toFile: policies + "/p.json", atomically: true, encoding: .utf8)
            for (name, text) in [("r.keys", "2026-12 \(Base64URL.encode(InspectSignedURLTests.secret))\n"), ("o.token", "svc-77\n")] {
                try text.write(toFile: policies + "/keys/" + name, atomically: true, encoding: .utf8)
                try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: policies + "/keys/" + name)
            }
        }
    }

    func run(_ world: World, _ url: String, fetcher: CountingOriginFetcher, stateDirectory: String? = nil) async -> CLIRun {
        let environment = CommandEnvironment(fetcher: fetcher, clock: .fixed(at: InspectSignedURLTests.now))
        return await CLIRun.run(["inspect", url, "--policies", world.policies, "--state-dir", stateDirectory ?? world.state],
                                using: environment)
    }

    @Test func aValidURLShowsItsPartitionThenTheOriginRequest() async throws {
        let world = try World()
        defer { world.folder.remove() }
        // The subject key the running service made (mediactl serve creates it; here through a service).
        let partition = try #require(try SubjectKeyerFixture.partition("user-1042", stateDirectory: world.state))
        let target = try URLSigner(keyID: "2026-12", secret: Self.secret)
            .sign(path: "/receipts/r-7731.png", query: "w=144&x=1", subject: "user-1042", expires: Int64(Self.now) + 300)
        let fetcher = CountingOriginFetcher()
        let result = await run(world, "https://media.example.com" + target, fetcher: fetcher)
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("""
            signed URL:
              route:          receipts (mount /receipts/), tier signed
              result:         valid
              key id:         2026-12
              expires:        2027-01-01T00:00:00Z (in 300 s; maxLifetime 900 s)
              subject:        9 characters (not shown)
              partition:      \(partition) (keyed digest of the subject, \(world.state)/keys/subject.key)
              origin request: GET http://origin.test/r/r-7731.png?x=1 (Authorization: Bearer <the route's origin token>, Mediactl-Subject: <the subject>)

            GET http://origin.test/r/r-7731.png?x=1
            """))
        #expect(fetcher.requests.map(\.url) == ["http://origin.test/r/r-7731.png?x=1"])
        #expect(fetcher.requests.first?.fields["Authorization"] == "Bearer svc-77")
        #expect(fetcher.requests.first?.fields["Mediactl-Subject"] == "user-1042")
        for secret in ["svc-77", "user-1042", String(target.split(separator: "=").last!), Base64URL.encode(Self.secret)] {
            #expect(!result.stdout.contains(secret))
        }
        let unknown = await run(world, "https://media.example.com" + target, fetcher: fetcher, stateDirectory: world.folder.path)
        #expect(unknown.stdout.contains("  partition:      unknown (no keys/subject.key in \(world.folder.path); give --state-dir)\n"))
    }

    @Test func aRefusedURLSaysWhyAndNeverContactsTheOrigin() async throws {
        let world = try World()
        defer { world.folder.remove() }
        let target = try URLSigner(keyID: "2026-12", secret: Self.secret)
            .sign(path: "/receipts/r-7731.png", subject: "u", expires: Int64(Self.now) - 1)
        let fetcher = CountingOriginFetcher()
        let result = await run(world, "http://m.example" + target, fetcher: fetcher)
        #expect(result.status == 1)
        #expect(result.stdout == """
            signed URL:
              route:          receipts (mount /receipts/), tier signed
              result:         refused 403 signature-expired (the signed URL has expired)


            """)
        #expect(fetcher.totalCallCount == 0)
    }
}

/// A subject's partition as a service on `stateDirectory` computes it (making the subject key, as serve does).
enum SubjectKeyerFixture {
    static func partition(_ subject: String, stateDirectory: String) throws -> String? {
        try makeKey(stateDirectory)
        return try SubjectKeyer.existing(stateDirectory: stateDirectory)?.partition(forSubject: subject)
    }

    static func makeKey(_ stateDirectory: String) throws {
        try FileManager.default.createDirectory(atPath: stateDirectory + "/keys", withIntermediateDirectories: true)
        let path = stateDirectory + "/keys/subject.key"
        _ = FileManager.default.createFile(atPath: path, contents: Data((0..<32).map { UInt8($0 * 7 % 256) }),
                                       attributes: [.posixPermissions: 0o600])
    }
}
