import MediaTestSupport
import Foundation
import Testing

@testable import MediaCTL

/// `mediactl fetch PATH` through the real pipeline against the demo's origin on a real socket.
@Suite struct FetchCommandTests {
    struct Setup {
        let directory: TemporaryDirectory
        let origin: TestOrigin
        let policies: String
        let state: String

        init() throws {
            directory = try TemporaryDirectory()
            origin = try TestOrigin(addsDateField: false)
            policies = try origin.writePolicies(in: directory)
            state = directory.path + "/state"
        }

        /// A fixed service clock: no second boundary can add an age of 1 s to a fresh answer.
        static let now = Date().timeIntervalSince1970.rounded(.down)

        static var environment: CommandEnvironment { CommandEnvironment(clock: .fixed(at: Setup.now)) }

        func run(_ arguments: [String]) async -> CLIRun {
            await CLIRun.run(
                ["fetch"] + arguments + ["--policies", policies, "--state-dir", state], using: Self.environment)
        }

        func finish() async {
            await origin.stop()
            directory.remove()
        }
    }

    static func object(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    @Test func credentialFileSendsTheBearerTokenWithoutPuttingItOnTheCommandLine() async throws {
        let setup = try Setup()
        let credential = try setup.directory.file("u1.cred", contents: "Bearer demo-token-u1\n")
        let allowed = await setup.run(["/receipts/r-7731.png", "--credential-file", credential, "--json"])
        #expect(allowed.status == 0)
        let document = try Self.object(allowed.stdout)
        #expect(document["status"] as? Int == 200)
        #expect(document["storage"] as? String == "encrypted-disk")
        #expect(!allowed.stdout.contains("demo-token-u1") && !allowed.stderr.contains("demo-token-u1"))
        let refused = await setup.run(["/receipts/r-7731.png", "--json"])
        #expect(refused.status == 1)
        #expect(try Self.object(refused.stdout)["status"] as? Int == 401)
        await setup.finish()
    }

    @Test func jsonHasExactlyTheDocumentedKeysAndTheSecondRunHitsDisk() async throws {
        let setup = try Setup()
        let path = "/catalog/coffee-237a7131.jpg"
        let size = setup.origin.origin.files[path]!.bytes.count
        let first = await setup.run([path, "--json"])
        #expect(first.status == 0)
        #expect(first.stderr == "")
        let document = try Self.object(first.stdout)
        #expect(Set(document.keys) == ["status", "headers", "cacheStatus", "storage", "reason", "bytes", "variant", "derivedFrom"])
        #expect(document["variant"] is NSNull)
        #expect(document["status"] as? Int == 200)
        #expect(document["cacheStatus"] as? String == "mediactl; fwd=uri-miss; fwd-status=200; ttl=31536000; stored; detail=disk")
        #expect(document["storage"] as? String == "disk")
        #expect(document["reason"] as? String == "tier-storage")
        #expect(document["bytes"] as? Int == size)
        let headers = try #require(document["headers"] as? [String: String])
        #expect(headers["Content-Type"] == "image/jpeg")
        #expect(headers["Content-Length"] == String(size))
        #expect(headers["X-Content-Type-Options"] == "nosniff")
        #expect(first.stdout.hasPrefix("{\n  \"bytes\" : \(size),\n  \"cacheStatus\" : "))
        #expect(first.stdout.hasSuffix("\n}\n"))

        // A new process on the same state directory finds the disk object.
        let second = try Self.object(await setup.run([path, "--json"]).stdout)
        #expect((second["cacheStatus"] as? String)?.hasPrefix("mediactl; hit; ttl=") == true)
        #expect(second["storage"] as? String == "hit")
        #expect(second["reason"] is NSNull)
        #expect(setup.origin.origin.requestCount == 1)
        await setup.finish()
    }

    @Test func textReportListsStatusFieldsAndDecision() async throws {
        let setup = try Setup()
        let run = await setup.run(["/avatars/u1001.jpg", "--header", "Accept: image/*"])
        #expect(run.status == 0)
        let etag = setup.origin.origin.files["/avatars/u1001.jpg"]!.etag
        let lines = run.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            .filter { !$0.hasPrefix("Age: ") }
        #expect(
            lines == [
                "200 OK", "Content-Type: image/jpeg", "ETag: \(etag)", "Cache-Control: max-age=60",
                "X-Content-Type-Options: nosniff",
                "Cache-Status: mediactl; fwd=uri-miss; fwd-status=200; ttl=60; stored; detail=disk",
                "Accept-Ranges: bytes", "Content-Length: 3181", "", "route: avatars (tier avatar)", "storage: disk (reason: tier-storage)",
                "body: 3181 bytes", "",
            ])
        await setup.finish()
    }

    @Test func outputFileGetsTheBodyWithMode0600() async throws {
        let setup = try Setup()
        let file = setup.directory.path + "/receipt.png"
        let run = await setup.run([
            "/receipts/r-7731.png", "--header", "Authorization: Bearer demo-token-u1", "--output", file,
        ])
        #expect(run.status == 0)
        #expect(run.stdout.hasSuffix("storage: encrypted-disk (reason: tier-storage)\nbody: 47679 bytes (written to \(file))\n"))
        #expect(run.stdout.contains("Cache-Control: private, no-store\n"))
        #expect(run.stdout.contains("Vary: Authorization\n"))
        let written = try Data(contentsOf: URL(fileURLWithPath: file))
        #expect([UInt8](written) == setup.origin.origin.files["/receipts/r-7731.png"]!.bytes)
        let attributes = try FileManager.default.attributesOfItem(atPath: file)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        await setup.finish()
    }

    @Test func outputDashSendsTheBodyToStdoutAndTheReportToStderr() async throws {
        let setup = try Setup()
        let out = CapturedOutput()
        let err = CapturedOutput()
        let status = await MediaCTLMain.run(
            [
                "fetch", "/catalog/horse-d29d871c.jpg", "--output", "-", "--json", "--policies", setup.policies,
                "--state-dir", setup.state,
            ], environment: [:], stdout: out, stderr: err, commandEnvironment: Setup.environment)
        #expect(status == 0)
        #expect(out.bytes == setup.origin.origin.files["/catalog/horse-d29d871c.jpg"]!.bytes)
        #expect(try Self.object(err.text)["storage"] as? String == "disk")
        await setup.finish()
    }

    @Test func refusalsAndNonImagesExit1() async throws {
        let setup = try Setup()
        let refused = await setup.run(["/receipts/r-7731.png", "--json"])
        #expect(refused.status == 1)
        let document = try Self.object(refused.stdout)
        #expect(document["status"] as? Int == 401)
        #expect(document["reason"] as? String == "credentials-required")
        #expect(document["cacheStatus"] is NSNull)
        #expect(document["storage"] is NSNull)
        let unfixed = await CLIRun.run(
            ["fetch", "/receipts/r-7731.png", "--policies", setup.policies, "--state-dir", setup.state])
        #expect(unfixed.status == 1)
        #expect(unfixed.stdout.hasPrefix("401 Unauthorized\n"))
        let missing = await setup.run(["/catalog/none.jpg"])
        #expect(missing.status == 1)
        #expect(missing.stdout.hasPrefix("404 Not Found\n") || missing.stdout.hasPrefix("502 Bad Gateway\n"))
        let noRoute = await setup.run(["/elsewhere/a.jpg"])
        #expect(noRoute.status == 1)
        #expect(noRoute.stdout.hasPrefix("404 Not Found\n"))
        #expect(noRoute.stdout.contains("\nroute: none\n"))
        await setup.finish()
    }

    @Test func unwritableOutputExits2() async throws {
        let setup = try Setup()
        let run = await setup.run(["/catalog/coffee-237a7131.jpg", "--output", "/nonexistent-dir/a.jpg"])
        #expect(run == CLIRun(status: 2, stdout: "", stderr: "mediactl: cannot write '/nonexistent-dir/a.jpg': No such file or directory (errno 2)\n"))
        await setup.finish()
    }
}
