import MediaTestSupport
import Foundation
import MediaAudit
import Synchronization
import Testing

@testable import MediaCTL

#if canImport(Glibc)
    import Glibc
#endif

/// `mediactl purge … --replicas FILE`: the file format, the fan-out's output and exit codes, the bounded retry.
@Suite struct PurgeFanOutTests {
    @Test func replicasOptionParsesAndExcludesStateDir() async throws {
        #expect(
            try MediaCTLMain.parse(["purge", "--all", "--replicas", "fleet.txt"], environment: ["MEDIACTL_STATE_DIR": "E"])
                == .command(PurgeCommand(target: .all, stateDirectory: "E", replicasFile: "fleet.txt")))
        let both = await CLIRun.run(["purge", "--all", "--replicas", "f", "--state-dir", "S"])
        #expect(both.status == 64)
        #expect(
            both.stderr
                == CLIRun.usageError("options --state-dir and --replicas cannot be used together", command: ["purge"]))
    }

    @Test func fileProblemsNameTheFileAndLineAndExitTwo() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let state = folder.path
        let cases: [(String, String)] = [
            ("http://127.0.0.1:9091\n", "line 1: http://127.0.0.1:9091 has no token source: write 'ADMIN-URL STATE-DIR' or 'ADMIN-URL SERVE.JSON'"),
            ("# fleet\n\nhttps://10.0.0.1:9091 \(state)\n", "line 3: https://10.0.0.1:9091: https is not supported: the admin listener speaks plain HTTP"),
            ("ftp://h:1 \(state)\n", "line 1: ftp://h:1: not an admin URL http://HOST:PORT"),
            ("http://h:1/_mediactl/purge \(state)\n", "line 1: http://h:1/_mediactl/purge: not an admin URL http://HOST:PORT (no user, path, query or fragment)"),
            ("http://u:p@h:1 \(state)\n", "line 1: http://u:p@h:1: not an admin URL http://HOST:PORT (no user, path, query or fragment)"),
            ("http://h:1 \(state) extra\n", "line 1: expected 2 fields (ADMIN-URL TOKEN-SOURCE), found 3"),
            ("http://h:1 \(state)\nhttp://h:1/ \(state)\n", "line 2: http://h:1 is already on line 1"),
            ("http://h:1 \(state)/none\n", "line 1: token source '\(state)/none' does not exist (a state directory or a serve.json file)"),
        ]
        for (index, (contents, message)) in cases.enumerated() {
            let file = try folder.file("r\(index).txt", contents: contents)
            let result = await CLIRun.run(["purge", "--all", "--replicas", file])
            #expect(result == CLIRun(status: 2, stdout: "", stderr: "mediactl: replicas file '\(file)' \(message)\n"))
        }
        let empty = try folder.file("empty.txt", contents: "# nothing\n\n")
        #expect(
            await CLIRun.run(["purge", "--all", "--replicas", empty])
                == CLIRun(status: 2, stdout: "", stderr: "mediactl: replicas file '\(empty)' names no replica\n"))
        let missing = await CLIRun.run(
            ["purge", "--all", "--replicas", state + "/nope.txt"])
        #expect(missing.status == 2)
        #expect(missing.stderr == "mediactl: cannot read replicas file '\(state)/nope.txt': No such file or directory (errno 2)\n")
        let notServe = try folder.file("not-serve.json", contents: "{}")
        let bad = try folder.file("bad.txt", contents: "http://127.0.0.1:1 \(notServe)\n")
        #expect(
            await CLIRun.run(["purge", "--all", "--replicas", bad])
                == CLIRun(
                    status: 2, stdout: "",
                    stderr: "mediactl: serve.json '\(notServe)' is not a serve.json document ({\"pid\",\"listen\",\"adminToken\"})\n"))
    }

    @Test func adminURLsAndTheirAuthorities() {
        #expect(PurgeReplicasFile.authority(of: "http://127.0.0.1:9091") == .success("127.0.0.1:9091"))
        #expect(PurgeReplicasFile.authority(of: "http://10.0.0.11:9091/") == .success("10.0.0.11:9091"))
        #expect(PurgeReplicasFile.authority(of: "http://replica-1.internal") == .success("replica-1.internal:80"))
        #expect(PurgeReplicasFile.authority(of: "http://[::1]:9091") == .success("[::1]:9091"))
        #expect(PurgeReplicasFile.authority(of: "HTTP://h:1") == .success("h:1"))
        #expect(PurgeReplicasFile.authority(of: "http://h:1?x=1").isFailure)
        #expect(PurgeReplicasFile.authority(of: "http://h:1#f").isFailure)
        #expect(PurgeReplicasFile.authority(of: "127.0.0.1:9091").isFailure)
        #expect(PurgeReplicasFile.authority(of: "http://h:0").isFailure)
    }

    /// Two running services and a third whose serve.json names a port nothing listens on (a crashed replica):
    /// both running ones are purged, the third is named on stderr, exit 1.
    @Test func purgesEveryReachableReplicaAndNamesTheOthers() async throws {
        let first = try await PurgeCommandTests.Running()
        let second = try await PurgeCommandTests.Running()
        let dead = try TemporaryDirectory()
        let stopped = try TemporaryDirectory()
        let folder = try TemporaryDirectory()
        defer { [dead, stopped, folder].forEach { $0.remove() } }
        try ServeStateFile(pid: getpid(), listen: "127.0.0.1:1", admin: "127.0.0.1:1", adminToken: "t")
            .write(stateDirectory: dead.path)
        let serveCopy = try folder.file("second.serve.json", contents: String(
            decoding: try Data(contentsOf: URL(fileURLWithPath: second.harness.stateDirectory + "/serve.json")), as: UTF8.self))
        let file = try folder.file(
            "fleet.txt",
            contents: """
                # the fleet
                http://\(first.server.listen)   \(first.harness.stateDirectory)
                http://127.0.0.1:1/   \(dead.path)    # crashed
                http://\(second.server.listen)\t\(serveCopy)
                http://127.0.0.1:2 \(stopped.path)

                """)
        let result = await CLIRun.run(["purge", "--all", "--replicas", file])
        #expect(result.status == 1)
        #expect(
            result.stdout == """
                http://\(first.server.listen): purged 2 entries
                http://127.0.0.1:1: failed
                http://\(second.server.listen): purged 2 entries
                http://127.0.0.1:2: failed
                total: purged 4 entries on 2 of 4 replicas

                """)
        let lines = result.stderr.split(separator: "\n").map(String.init)
        #expect(lines.count == 3)
        #expect(lines.first?.hasPrefix("mediactl: http://127.0.0.1:1: cannot connect after 3 attempts: ") == true)
        #expect(lines.dropFirst().first == "mediactl: http://127.0.0.1:2: no serve.json in state directory \(stopped.path) (is the replica running?)")
        #expect(lines.last == "mediactl: purge failed on 2 of 4 replicas: http://127.0.0.1:1, http://127.0.0.1:2")
        for running in [first, second] {
            #expect(try running.harness.objects(in: .disk).isEmpty)
            #expect(try running.harness.records().filter { $0.event == .purge && $0.key == nil }.map { $0.reason?.rawValue } == ["purge-all"])
            await running.close()
        }
    }

    @Test func everyReplicaPurgedIsExitZero() async throws {
        let first = try await PurgeCommandTests.Running()
        let second = try await PurgeCommandTests.Running()
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let file = try folder.file(
            "fleet.txt",
            contents: "http://\(first.server.listen) \(first.harness.stateDirectory)\nhttp://\(second.server.listen) \(second.harness.stateDirectory)\n")
        let route = await CLIRun.run(["purge", "--route", "catalog", "--replicas", file])
        #expect(
            route
                == CLIRun(
                    status: 0,
                    stdout: "http://\(first.server.listen): purged 1 entry\nhttp://\(second.server.listen): purged 1 entry\ntotal: purged 2 entries on 2 of 2 replicas\n",
                    stderr: ""))
        let unknown = await CLIRun.run(["purge", "--route", "nope", "--replicas", file])
        #expect(unknown.status == 1)
        #expect(unknown.stdout.hasSuffix("total: purged 0 entries on 0 of 2 replicas\n"))
        #expect(
            unknown.stderr.hasPrefix(
                "mediactl: http://\(first.server.listen): refused the purge: 404 unknown-route: no route named nope; "))
        await first.close()
        await second.close()
    }

    /// The retry: connection failures and 5xx are tried again (3 attempts), a 4xx is final.
    @Test func boundedRetryOnlyOnConnectionFailuresAnd5xx() async throws {
        let replica = PurgeReplicasFile.Replica(url: "http://r:1", authority: "r:1", tokenSource: "/s", line: 1)
        let fast = PurgeFanOut.Configuration(attempts: 3, retryDelay: .zero)
        func answers(_ scripted: [Int]) -> (PurgeFanOut.Send, @Sendable () -> Int) {
            let calls = Mutex(0)
            let send: PurgeFanOut.Send = { _, _, _ in
                let index = calls.withLock { value in
                    value += 1
                    return value - 1
                }
                let status = scripted[min(index, scripted.count - 1)]
                if status == 0 { throw URLError(.cannotConnectToHost) }
                let body = status == 200 ? "{\"purged\":7}" : "{\"code\":\"c\(status)\",\"detail\":\"d\"}"
                return PurgeClient.Answer(status: status, body: Array(body.utf8))
            }
            return (send, { calls.withLock { $0 } })
        }
        let (recovering, recoveringCalls) = answers([0, 503, 200])
        #expect(await PurgeFanOut.purge(replica, body: [], token: "t", configuration: fast, send: recovering) == .purged(7))
        #expect(recoveringCalls() == 3)
        let (failing, failingCalls) = answers([500])
        #expect(
            await PurgeFanOut.purge(replica, body: [], token: "t", configuration: fast, send: failing)
                == .failed("answered 500 c500 after 3 attempts: d"))
        #expect(failingCalls() == 3)
        let (refusing, refusingCalls) = answers([401])
        #expect(
            await PurgeFanOut.purge(replica, body: [], token: "t", configuration: fast, send: refusing)
                == .failed("refused the purge: 401 c401: d"))
        #expect(refusingCalls() == 1)
    }
}

extension Result {
    fileprivate var isFailure: Bool {
        if case .failure = self { return true }
        return false
    }
}
