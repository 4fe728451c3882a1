import Foundation
import MediaSigning
import MediaTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Keys files and origin tokens as operators meet them (mode rule, rotation by reload), nothing secret anywhere on disk
/// or in a log, and CORS answered by mediactl itself, against the built binary and a real nginx origin.
@Suite(.enabled(if: NginxOrigin.isAvailable, "nginx is installed by scripts/test"), .serialized)
struct SignedURLOperationsTests {
    static let modeProblem = "has mode 0644: readable or writable by group or others; allowed: a regular file only its owner can read or write (chmod 600)"

    @Test func secretFilesOthersCanReadAreRefusedByPolicyCheckAndServe() throws {
        let signed = try SignedURLWorld()
        defer { signed.tearDown() }
        let policies = signed.world.policiesDirectory.path
        #expect(try MediactlProcess.run(["policy", "check", "--policies", policies]).exitCode == 0)
        for file in [signed.keysFile, signed.tokenFile] {
            try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: file.path)
            let check = try MediactlProcess.run(["policy", "check", "--policies", policies])
            #expect(check.exitCode == 2)
            #expect(check.stdout == "")
            #expect(check.stderr == "mediactl: \(file.path): \(Self.modeProblem)\nmediactl: policy check failed: 1 problem in \(policies)\n")
            let serve = try MediactlProcess.run(["serve", "--listen", "127.0.0.1:0", "--admin-listen", "off", "--policies", policies,
                                                 "--state-dir", signed.world.stateDirectory.path])
            #expect(serve.exitCode == 2)
            #expect(serve.stderr == "mediactl: \(file.path): \(Self.modeProblem)\n")
            try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file.path)
        }
    }

    @Test func aKeyAddedByAReloadVerifiesAndARemovedOneStopsAtOnce() throws {
        let signed = try SignedURLWorld()
        defer { signed.tearDown() }
        try signed.world.start()
        let old = try signed.sign("/receipts/r-7731.png", subject: "alice")
        #expect(try signed.world.get(old).status == 200)
        let newKey = Base64URL.encode(Array(repeating: 0x5A, count: 32))
        try SignedURLWorld.writeSecret("2026-12 \(Base64URL.encode(SignedURLWorld.secret))\n2027-01 \(newKey)\n", to: signed.keysFile)
        let unknown = try URLSigner(keyID: "2027-01", secret: Array(repeating: 0x5A, count: 32))
            .sign(path: "/receipts/r-7731.png", subject: "alice", expires: Int64(Date().timeIntervalSince1970) + 300)
        #expect(try signed.world.get(unknown).problemCode == "unknown-key-id")
        #expect(try signed.world.run(["reload"]).exitCode == 0)
        #expect(try signed.world.get(unknown).status == 200)
        try SignedURLWorld.writeSecret("2027-01 \(newKey)\n", to: signed.keysFile)
        #expect(try signed.world.run(["reload"]).exitCode == 0)
        #expect(try signed.world.get(old).problemCode == "unknown-key-id")
        #expect(try signed.world.get(unknown).status == 200)
        // A keys file made readable by others: the reload fails and the keys in force stay.
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: signed.keysFile.path)
        let refused = try signed.world.run(["reload"])
        #expect(refused.exitCode == 1)
        #expect(refused.stderr.hasPrefix("mediactl: \(signed.keysFile.path): \(Self.modeProblem)\nmediactl: reload failed: 1 problem in "))
        #expect(try signed.world.get(unknown).status == 200)
    }

    @Test func noSecretSignatureOrSubjectInAnyFileOrLog() throws {
        let signed = try SignedURLWorld()
        defer { signed.tearDown() }
        let logURL = signed.world.root.appendingPathComponent("access.log")
        try signed.world.start(extraArguments: ["--access-log", logURL.path])
        let subjects = ["alice", "bob"]
        var signatures: [String] = []
        for subject in subjects {
            for query in [nil, "w=144"] as [String?] {
                let target = try signed.sign("/receipts/r-7731.png", query: query, subject: subject)
                signatures.append(String(target.split(separator: "&").last!.dropFirst(4)))
                #expect(try signed.world.get(target).status == 200)
                #expect(try signed.world.get(target).status == 200)
            }
        }
        let expired = try signed.sign("/receipts/r-7731.png", subject: "alice", in: -1)
        #expect(try signed.world.get(expired).status == 403)
        _ = try signed.world.run(["purge", "--subject", "bob"])
        try signed.world.settle()
        #expect(signed.world.stop() == 0)
        let secretText = Base64URL.encode(SignedURLWorld.secret)
        let needles: [[UInt8]] = [Array(secretText.utf8), SignedURLWorld.secret, Array(SignedURLWorld.token.utf8),
                                  Array("sub=alice".utf8), Array("sub=bob".utf8), Array("\"alice\"".utf8), Array("\"bob\"".utf8)]
            + signatures.map { Array($0.utf8) }
        // keys/subject.key is 32 random bytes: it holds none of these.
        let state = StateScan.filesContaining(needles, under: signed.world.stateDirectory)
        #expect(state == [])
        let log = try String(contentsOf: logURL, encoding: .utf8)
        for needle in needles { #expect(!log.contains(String(decoding: needle, as: UTF8.self))) }
        #expect(!log.contains("exp="))
        #expect(log.split(separator: "\n").count == 9)
        #expect(log.split(separator: "\n").allSatisfy { $0.contains("\"path_digest\":\"") && !$0.contains("\"path\":") })
        let key = signed.world.stateDirectory.appendingPathComponent("keys/subject.key")
        let attributes = try FileManager.default.attributesOfItem(atPath: key.path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        #expect((attributes[.size] as? NSNumber)?.intValue == 32)
    }

    @Test func corsIsAnsweredHereAndTheOriginsCORSNeverSplitsTheCache() throws {
        let signed = try SignedURLWorld { text in
            // A public route on the signed example's CORS, whose origin echoes its own CORS and Vary: Origin.
            text.replacingOccurrences(of: "\"routes\": [", with: """
                "routes": [ { "name": "cors-echo", "mount": "/echo/", "origin": "ORIGIN/cors-echo/", "tier": "echo" },
                """).replacingOccurrences(of: "\"tiers\": {", with: """
                "tiers": { "echo": { "storage": "memory", "variants": { "widths": [72, 144], "formats": ["jpeg"] },
                                     "cors": { "allowOrigins": ["https://app.example.com"] } },
                """)
        }
        defer { signed.tearDown() }
        let file = signed.world.policiesDirectory.appendingPathComponent("e2e.json")
        try String(contentsOf: file, encoding: .utf8).replacingOccurrences(of: "ORIGIN", with: signed.world.origin.baseURL)
            .write(to: file, atomically: true, encoding: .utf8)
        try signed.world.start()
        let app = ("Origin", "https://app.example.com")
        let preflight = try RawHTTP.request(port: signed.world.port, "OPTIONS", "/attachments/r-7732.jpg",
                                            headers: [app, ("Access-Control-Request-Method", "GET"),
                                                      ("Access-Control-Request-Headers", "authorization")])
        #expect(preflight.status == 204)
        #expect(preflight.fields.filter { $0.name != "Date" && $0.name != "Connection" && $0.name != "X-Request-Id" }.map { "\($0.name): \($0.value)" } == [
            "Access-Control-Allow-Origin: https://app.example.com", "Access-Control-Allow-Methods: GET, HEAD",
            "Access-Control-Allow-Headers: Authorization", "Access-Control-Max-Age: 600", "Vary: Origin",
            "Cache-Control: no-store", "X-Content-Type-Options: nosniff",
        ])
        let evil = try RawHTTP.request(port: signed.world.port, "OPTIONS", "/attachments/r-7732.jpg",
                                       headers: [("Origin", "https://evil.example"), ("Access-Control-Request-Method", "GET")])
        #expect(evil.status == 403)
        #expect(evil.problemCode == "cors-origin-not-allowed")
        #expect(!evil.fields.contains { $0.name.lowercased().hasPrefix("access-control-") })
        let read = try signed.world.get("/attachments/r-7732.jpg", token: "t1", headers: [app])
        #expect(read.status == 200)
        #expect(read.headers("Access-Control-Allow-Origin") == ["https://app.example.com"])
        #expect(read.header("Timing-Allow-Origin") == "https://app.example.com")
        #expect(read.headers("Vary") == ["Authorization", "Origin"])
        let plain = try signed.world.get("/attachments/r-7732.jpg", token: "t1")
        #expect(plain.header("Access-Control-Allow-Origin") == nil)
        #expect(plain.headers("Vary") == ["Authorization", "Origin"])
        // The echoing origin: its `*` never reaches the client, and its Vary: Origin does not keep variants unstored.
        let first = try signed.world.get("/echo/chelsea-5d40df37.jpg?w=144", headers: [app])
        #expect(first.status == 200)
        #expect(first.headers("Access-Control-Allow-Origin") == ["https://app.example.com"])
        #expect(first.header("Cache-Status")?.contains("stored") == true)
        let again = try signed.world.get("/echo/chelsea-5d40df37.jpg?w=144", headers: [("Origin", "https://other.example")])
        #expect(again.header("Cache-Status")?.hasPrefix("mediactl; hit") == true)
        #expect(again.header("Access-Control-Allow-Origin") == nil)
        #expect(signed.signedLog == ["/cors-echo/chelsea-5d40df37.jpg auth=- sub=- origin=- status=200"])
    }
}
