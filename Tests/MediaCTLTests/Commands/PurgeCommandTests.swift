import MediaTestSupport
import Foundation
import MediaAudit
import Testing

@testable import MediaCTL
@testable import MediaServer

#if canImport(Glibc)
    import Glibc
#endif

@Suite struct PurgeCommandTests {
    /// A populated service behind a real loopback server, and its serve.json.
    struct Running {
        let harness: ServiceStateHarness
        let server: AdminTestServer
        let token: String

        init(host: String = "127.0.0.1") async throws {
            harness = try ServiceStateHarness()
            try await harness.populate()
            token = try ServeStateFile.makeAdminToken()
            server = try AdminTestServer(service: harness.service, adminToken: token, host: host)
            // The public address answers nothing: purge goes to the admin listener serve.json names.
            try ServeStateFile(pid: getpid(), listen: "127.0.0.1:1", admin: server.listen, adminToken: token)
                .write(stateDirectory: harness.stateDirectory)
        }

        func purge(_ target: [String]) async -> CLIRun {
            await harness.run(["purge"] + target + ["--state-dir", harness.stateDirectory])
        }

        func close() async {
            server.stop()
            await harness.close()
        }
    }

    @Test func purgesThroughTheRunningService() async throws {
        let running = try await Running()
        let credentials = try TemporaryDirectory()
        defer { credentials.remove() }
        let u2 = try credentials.file("u2.token", contents: "tok-U2\n")
        let u1 = try credentials.file("u1.token", contents: "Bearer tok-U1\n")

        let route = await running.purge(["--route", "catalog"])
        #expect(route == CLIRun(status: 0, stdout: "purged 1 entry\n", stderr: ""))
        #expect(try running.harness.objects(in: .disk).isEmpty)
        let other = await running.purge(["--credential-file", u2])
        #expect(other == CLIRun(status: 0, stdout: "purged 0 entries\n", stderr: ""))
        #expect(try running.harness.objects(in: .sealed).count == 1)
        let logout = await running.purge(["--credential-file", u1])
        #expect(logout == CLIRun(status: 0, stdout: "purged 1 entry\n", stderr: ""))
        #expect(try running.harness.objects(in: .sealed).isEmpty)
        let all = await running.purge(["--all"])
        #expect(all == CLIRun(status: 0, stdout: "purged 0 entries\n", stderr: ""))
        let summaries = try running.harness.records().filter { $0.event == .purge && $0.key == nil }
        #expect(
            summaries.map { $0.reason?.rawValue } == [
                "purge-route", "purge-credential", "purge-credential", "purge-all",
            ])
        await running.close()
    }

    /// Linux URLSession refuses IPv6-literal URLs (`NSURLErrorDomain -1000`): a service listening on
    /// `[::1]` is reached through `localhost`.
    @Test func purgesAServiceListeningOnIPv6Loopback() async throws {
        let running = try await Running(host: "::1")
        #expect(running.server.listen.hasPrefix("[::1]:"))
        let all = await running.purge(["--all"])
        #expect(all == CLIRun(status: 0, stdout: "purged 2 entries\n", stderr: ""))
        await running.close()
    }

    @Test func reachableAddressesOfListenAddresses() {
        #expect(PurgeClient.reachableAddress("[::1]:8080") == "localhost:8080")
        #expect(PurgeClient.reachableAddress("[::]:8080") == "localhost:8080")
        #expect(PurgeClient.reachableAddress("0.0.0.0:8080") == "127.0.0.1:8080")
        #expect(PurgeClient.reachableAddress("127.0.0.1:8080") == "127.0.0.1:8080")
        #expect(PurgeClient.reachableAddress("[fd00::5]:8080") == "[fd00::5]:8080")
    }

    @Test func serviceRefusalsAreReported() async throws {
        let running = try await Running()
        let unknown = await running.purge(["--route", "nope"])
        #expect(unknown == CLIRun(status: 2, stdout: "",
                                 stderr: "mediactl: the service at \(running.server.listen) refused the purge: 404 unknown-route: no route named nope; routes: catalog, large, avatars, uploads, receipts, one-time\n"))
        try ServeStateFile(pid: getpid(), listen: running.server.listen, adminToken: "stale")
            .write(stateDirectory: running.harness.stateDirectory)
        let stale = await running.purge(["--all"])
        #expect(stale == CLIRun(status: 2, stdout: "",
                                 stderr: "mediactl: the service at \(running.server.listen) refused the purge: 401 admin-token-required: /_mediactl/purge requires the admin token of serve.json as a bearer token\n"))
        #expect(try running.harness.objects(in: .disk).count == 1)
        await running.close()
    }

    @Test func noServeJSONIsExitTwo() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let result = await CLIRun.run(
            ["purge", "--all", "--state-dir", folder.path])
        #expect(result == CLIRun(status: 2, stdout: "",
                                 stderr: "mediactl: no running service for state directory \(folder.path) (no serve.json)\n"))
        let missing = await CLIRun.run(
            ["purge", "--route", "catalog", "--state-dir", folder.path + "/none"])
        #expect(
            missing.stderr == "mediactl: state directory '\(folder.path)/none' does not exist\n")
        #expect(missing.status == 2)
    }

    @Test func deadPidIsExitTwo() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        try ServeStateFile(pid: Int32.max, listen: "127.0.0.1:9", adminToken: "t").write(stateDirectory: folder.path)
        let result = await CLIRun.run(
            ["purge", "--all", "--state-dir", folder.path])
        #expect(result == CLIRun(status: 2, stdout: "",
                                 stderr: "mediactl: no running service for state directory \(folder.path) (serve.json names pid \(Int32.max), which is not running)\n"))
    }

    @Test func unreachableServiceIsExitTwo() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        // Port 1 on loopback: nothing listens there, so the connection is refused.
        try ServeStateFile(pid: getpid(), listen: "127.0.0.1:1", adminToken: "t").write(stateDirectory: folder.path)
        let result = await CLIRun.run(
            ["purge", "--all", "--state-dir", folder.path])
        #expect(result.status == 2)
        #expect(result.stdout == "")
        #expect(
            result.stderr.hasPrefix(
                "mediactl: no running service for state directory \(folder.path) (cannot connect to 127.0.0.1:1: "))
    }

    /// The whole message of an unreachable service: libcurl's reason through MediaCurl (the client links no
    /// FoundationNetworking), without the transport's code or attempt count.
    @Test func unreachableServiceSaysLibcurlsReason() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        try ServeStateFile(pid: getpid(), listen: "127.0.0.1:1", adminToken: "t").write(stateDirectory: folder.path)
        let result = await CLIRun.run(["purge", "--all", "--state-dir", folder.path])
        #expect(result == CLIRun(status: 2, stdout: "", stderr: "mediactl: no running service for state directory \(folder.path) "
                                     + "(cannot connect to 127.0.0.1:1: cannot connect (curl error 7))\n"))
    }

    /// A service started with `--admin-listen off` (`"admin":"off"` in serve.json): purge and reload say so, exit 2.
    @Test func noAdminListenerIsExitTwo() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        try ServeStateFile(pid: getpid(), listen: "127.0.0.1:1", admin: "off", adminToken: "t").write(stateDirectory: folder.path)
        let expected = CLIRun(
            status: 2, stdout: "",
            stderr: "mediactl: the service for state directory \(folder.path) runs without an admin listener (--admin-listen off)\n")
        #expect(await CLIRun.run(["purge", "--all", "--state-dir", folder.path]) == expected)
        #expect(await CLIRun.run(["reload", "--state-dir", folder.path]) == expected)
    }

    @Test func invalidServeJSONIsExitTwo() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        _ = try folder.file("serve.json", contents: "{\"pid\":1}")
        let result = await CLIRun.run(
            ["purge", "--all", "--state-dir", folder.path])
        #expect(
            result
                == CLIRun(
                    status: 2, stdout: "",
                    stderr: """
                        mediactl: serve.json '\(folder.path)/serve.json' is not a serve.json document ({"pid","listen","adminToken"})

                        """))
    }

    @Test func badCredentialFileIsExitTwoAndNothingIsSent() async throws {
        let running = try await Running()
        let credentials = try TemporaryDirectory()
        defer { credentials.remove() }
        let empty = try credentials.file("empty.token", contents: "")
        let result = await running.purge(["--credential-file", empty])
        #expect(result == CLIRun(status: 2, stdout: "", stderr: "mediactl: credential file '\(empty)' is empty\n"))
        let missing = await running.purge(["--credential-file", credentials.path + "/none"])
        #expect(missing == CLIRun(status: 2, stdout: "",
                                 stderr: "mediactl: cannot read credential file '\(credentials.path)/none': No such file or directory (errno 2)\n"))
        #expect(running.server.server.statistics.requests == 0)
        await running.close()
    }
}
