import Foundation
import HTTPCaching
import MediaCore
import MediaService
import MediaTestSupport
import Synchronization
import Testing

@testable import MediaCTL

extension ScriptedOrigin {
    /// A scripted answer for ``ScriptedOrigin/init(delay:table:)``: `status`, an optional `Cache-Status`, `body`.
    static func answer(_ status: HTTPStatus, cacheStatus: String? = nil, body: String = "") -> Result<OriginResponse, OriginError> {
        var fields = HTTPFields()
        if let cacheStatus { fields.append("Cache-Status", cacheStatus) }
        return .success(OriginResponse(status: status, fields: fields, body: Array(body.utf8)))
    }
}

/// A clock that advances by `step` seconds on every reading (deterministic durations and rates).
final class SteppingClock: Sendable {
    let now = Mutex<Double>(100)
    let step: Double
    init(step: Double) { self.step = step }
    func read() -> Double { now.withLock { value in defer { value += step }; return value } }
}

@Suite struct WarmListTests {
    @Test func parseSkipsBlankLinesAndCommentsAndKeepsLineNumbers() {
        let list = WarmList.parse("# warm list\n/catalog/a.jpg\n\n  /catalog/b.jpg?w=144  \r\n\t# indented comment\n/avatars/u1.jpg")
        #expect(list.entries == [
            .init(line: 2, target: "/catalog/a.jpg"), .init(line: 4, target: "/catalog/b.jpg?w=144"),
            .init(line: 6, target: "/avatars/u1.jpg"),
        ])
    }

    @Test func problemsNameEveryBadLine() throws {
        let policies = try ServiceSetup.loadPolicies([.init(name: "default.json", bytes: Array(DemoPolicy.text.utf8))])
        let list = WarmList.parse("""
            /catalog/a.jpg
            /receipts/r-1.png
            /nowhere/x.jpg
            catalog/b.jpg
            /catalog/../receipts/r-1.png
            /catalog/a b.jpg
            /one-time/t.jpg
            """)
        #expect(list.problems(policies: policies) == [
            "line 2: /receipts/r-1.png: route receipts (tier private) is partitioned per credential, and a warm list carries no credentials",
            "line 3: /nowhere/x.jpg: no route matches",
            "line 4: catalog/b.jpg: a path starts with /",
            "line 5: /catalog/../receipts/r-1.png: not a valid request target: '..' segment at index 1",
            "line 6: /catalog/a b.jpg: contains a space or control character",
        ])
    }
}

@Suite struct WarmSummaryTests {
    @Test func exactTextWithReasonsInOrder() {
        var summary = WarmSummary()
        let entries = (1...8).map { WarmList.Entry(line: $0 + 1, target: "/catalog/\($0).jpg") }
        let outcomes: [WarmOutcome] = [
            .stored, .fresh, .refused(status: 404, code: "origin-status-404"), .notStored(reason: "no-store"),
            .refreshed, .failed(reason: "connection-failed"), .refused(status: 404, code: "origin-status-404"),
            .refused(status: 400, code: "variant-not-allowed"),
        ]
        for (entry, outcome) in zip(entries, outcomes) { summary.add(outcome, for: entry) }
        #expect(summary.isFailure)
        #expect(summary.text(seconds: 1.25) == """
            8 paths in 1.2 s: 1 stored, 1 refreshed, 1 already fresh, 1 not stored, 3 refused, 1 failed
            not stored no-store: 1 (first: line 5, /catalog/4.jpg)
            refused 404 origin-status-404: 2 (first: line 4, /catalog/3.jpg)
            refused 400 variant-not-allowed: 1 (first: line 9, /catalog/8.jpg)
            failed connection-failed: 1 (first: line 7, /catalog/6.jpg)

            """)
    }

    @Test func oneStoredPath() {
        var summary = WarmSummary()
        summary.add(.stored, for: .init(line: 1, target: "/catalog/a.jpg"))
        #expect(!summary.isFailure)
        #expect(summary.text(seconds: 0.04) == "1 path in 0.0 s: 1 stored, 0 refreshed, 0 already fresh, 0 not stored, 0 refused, 0 failed\n")
    }

    @Test(arguments: [
        (200, "mediactl; fwd=uri-miss; stored", "", WarmOutcome.stored),
        (200, "mediactl; hit; ttl=3400", "", .fresh),
        (200, "mediactl; fwd=stale; fwd-status=304; ttl=60", "", .refreshed),
        (200, "mediactl; fwd=uri-miss; detail=no-store", "", .notStored(reason: "no-store")),
        (200, "", "", .notStored(reason: "-")),
        (404, "", #"{"type":"about:blank","code":"origin-status-404","status":404}"#, .refused(status: 404, code: "origin-status-404")),
        (502, "", "not json", .refused(status: 502, code: "-")),
    ] as [(HTTPStatus, String, String, WarmOutcome)])
    func outcomeOfAnAnswer(status: HTTPStatus, cacheStatus: String, body: String, expected: WarmOutcome) {
        var fields = HTTPFields()
        if !cacheStatus.isEmpty { fields.append("Cache-Status", cacheStatus) }
        #expect(WarmOutcome.of(status: status, fields: fields, body: Array(body.utf8)) == expected)
    }
}

@Suite struct WarmProgressTests {
    @Test func plainLinesEveryTwoSecondsAndNoneForAFastRun() {
        var progress = WarmProgress(total: 10, isTerminal: false, started: 0)
        #expect(progress.update(done: 1, now: 1.9) == nil)
        #expect(progress.update(done: 4, now: 2.0) == "mediactl: warm: 4/10 (40 %), 2.0/s, ETA 3 s\n")
        #expect(progress.update(done: 5, now: 3.0) == nil)
        #expect(progress.update(done: 9, now: 4.5) == "mediactl: warm: 9/10 (90 %), 2.0/s, ETA 1 s\n")
        #expect(progress.finish(done: 10, now: 5) == nil)
    }

    @Test func barOnATerminal() {
        var progress = WarmProgress(total: 4, isTerminal: true, started: 0)
        #expect(progress.update(done: 0, now: 0.05) == nil)
        #expect(progress.update(done: 1, now: 0.5) == "\r[#####               ] 1/4  2.0/s  ETA 2 s\u{1B}[K")
        #expect(progress.finish(done: 4, now: 2) == "\r[####################] 4/4  2.0/s  ETA 0 s\u{1B}[K\n")
    }
}

@Suite struct WarmCommandTests {
    static func policies(in directory: TemporaryDirectory) throws -> String {
        let path = directory.path + "/Policies"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        try Data(DemoPolicy.text.utf8).write(to: URL(fileURLWithPath: path + "/default.json"))
        return path
    }

    static func run(_ arguments: [String], fetcher: ScriptedOrigin, stdin: String = "", isTerminal: Bool = false)
        async -> CLIRun
    {
        let clock = SteppingClock(step: 0.1)
        let input = Array(stdin.utf8)
        let environment = CommandEnvironment(
            fetcher: fetcher, clock: CommandClock(now: CommandClock.system.now, monotonic: { clock.read() }),
            standardInput: { input }, standardErrorIsTerminal: isTerminal)
        return await CLIRun.run(arguments, using: environment)
    }

    @Test func warmsEveryPathInOrderAndSummarises() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let policies = try Self.policies(in: directory)
        let list = try directory.file("list.txt", contents: "# catalog\n/catalog/a.jpg\n/catalog/b.jpg?w=144\n/avatars/u1.jpg\n")
        let fetcher = ScriptedOrigin(table: [
            "http://127.0.0.1:9/catalog/a.jpg": ScriptedOrigin.answer(200, cacheStatus: "mediactl; fwd=uri-miss; stored"),
            "http://127.0.0.1:9/catalog/b.jpg?w=144": ScriptedOrigin.answer(200, cacheStatus: "mediactl; hit; ttl=99"),
            "http://127.0.0.1:9/avatars/u1.jpg": ScriptedOrigin.answer(200, cacheStatus: "mediactl; fwd=uri-miss; stored"),
        ])
        let result = await Self.run(
            ["warm", "--server", "http://127.0.0.1:9/", "--concurrency", "1", "--policies", policies, list], fetcher: fetcher)
        #expect(result == CLIRun(status: 0, stdout: """
            3 paths in 0.5 s: 2 stored, 0 refreshed, 1 already fresh, 0 not stored, 0 refused, 0 failed

            """, stderr: ""))
        #expect(fetcher.requests.map(\.url) == [
            "http://127.0.0.1:9/catalog/a.jpg", "http://127.0.0.1:9/catalog/b.jpg?w=144", "http://127.0.0.1:9/avatars/u1.jpg",
        ])
    }

    @Test func refusedOrFailedPathsExitOne() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let policies = try Self.policies(in: directory)
        let fetcher = ScriptedOrigin(table: [
            "http://h:1/catalog/missing.jpg": ScriptedOrigin.answer(404, body: #"{"code":"origin-status-404"}"#),
        ])
        let result = await Self.run(["warm", "--server", "http://h:1", "--policies", policies, "-"], fetcher: fetcher,
                                    stdin: "/catalog/missing.jpg\n/catalog/down.jpg\n")
        #expect(result.status == 1)
        #expect(result.stdout.hasPrefix("2 paths in "))
        #expect(result.stdout.hasSuffix("""
            : 0 stored, 0 refreshed, 0 already fresh, 0 not stored, 1 refused, 1 failed
            refused 404 origin-status-404: 1 (first: line 1, /catalog/missing.jpg)
            failed connection-failed: 1 (first: line 2, /catalog/down.jpg)

            """))
    }

    @Test func partitionedAndUnroutedLinesAreInputErrorsAndNothingIsSent() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let policies = try Self.policies(in: directory)
        let fetcher = ScriptedOrigin(table: [:])
        let result = await Self.run(["warm", "--server", "http://h:1", "--policies", policies], fetcher: fetcher,
                                    stdin: "/catalog/a.jpg\n/receipts/r-7731.png\n/nope/a.jpg\n")
        #expect(result == CLIRun(status: 2, stdout: "", stderr: """
            mediactl: line 2: /receipts/r-7731.png: route receipts (tier private) is partitioned per credential, and a warm list carries no credentials
            mediactl: line 3: /nope/a.jpg: no route matches

            """))
        #expect(fetcher.requests.map(\.url).isEmpty)
    }

    @Test func withoutServerAndServeJSONExitsTwo() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let policies = try Self.policies(in: directory)
        let result = await Self.run(["warm", "--policies", policies, "--state-dir", directory.path], fetcher: ScriptedOrigin(table: [:]),
                                    stdin: "/catalog/a.jpg\n")
        #expect(result == CLIRun(status: 2, stdout: "", stderr: """
            mediactl: no running service for state directory \(directory.path) (no serve.json; give --server URL)

            """))
    }

    @Test func unreadableListExitsTwo() async throws {
        let result = await Self.run(["warm", "--server", "http://h:1", "--policies", "/nonexistent", "/x"],
                                    fetcher: ScriptedOrigin(table: [:]))
        #expect(result.status == 2)
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let policies = try Self.policies(in: directory)
        let missing = await Self.run(["warm", "--server", "http://h:1", "--policies", policies, directory.path + "/none.txt"],
                                     fetcher: ScriptedOrigin(table: [:]))
        #expect(missing == CLIRun(status: 2, stdout: "", stderr: """
            mediactl: cannot read warm list '\(directory.path)/none.txt': No such file or directory (errno 2)

            """))
    }

    @Test func usageErrors() async {
        for (arguments, message) in [
            (["warm", "--concurrency", "0"], "invalid --concurrency '0': expected a whole number from 1 to 64"),
            (["warm", "--concurrency", "65"], "invalid --concurrency '65': expected a whole number from 1 to 64"),
            (["warm", "--concurrency", "four"], "invalid --concurrency 'four': expected a whole number from 1 to 64"),
            (["warm", "--server", "127.0.0.1:8080"], "invalid --server '127.0.0.1:8080': expected http://HOST:PORT or https://HOST:PORT"),
            (["warm", "--server", "http://h:1/catalog/"], "invalid --server 'http://h:1/catalog/': expected http://HOST:PORT or https://HOST:PORT"),
            (["warm", "a.txt", "b.txt"], "unexpected argument 'b.txt'"),
            (["warm", "--timeout", "0"], "invalid --timeout '0': expected a whole number of seconds from 1 to 3600"),
            (["warm", "--timeout", "3601"], "invalid --timeout '3601': expected a whole number of seconds from 1 to 3600"),
            (["warm", "--timeout", "1.5"], "invalid --timeout '1.5': expected a whole number of seconds from 1 to 3600"),
        ] {
            let result = await CLIRun.run(arguments)
            #expect(result == CLIRun(status: 64, stdout: "", stderr: CLIRun.usageError(message, command: ["warm"])), "\(arguments)")
        }
    }

    /// `--timeout` (added as one line in its command's file) reaches every request; 60 s without it.
    @Test func timeoutReachesEveryRequest() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let policies = try Self.policies(in: directory)
        let list = try directory.file("list.txt", contents: "/catalog/a.jpg\n")
        let answers = ["http://h:1/catalog/a.jpg": ScriptedOrigin.answer(200, cacheStatus: "mediactl; hit; ttl=9")]
        let fetcher = ScriptedOrigin(table: answers)
        let given = await Self.run(["warm", "--server", "http://h:1", "--timeout", "5", "--policies", policies, list], fetcher: fetcher)
        let defaulted = await Self.run(["warm", "--server", "http://h:1", "--policies", policies, list], fetcher: fetcher)
        #expect(given.status == 0)
        #expect(defaulted.status == 0)
        #expect(fetcher.requests.map(\.timeout) == [5, 60])
        #expect(try MediaCTLMain.parse(["warm", "--timeout=90"], environment: [:]) == .command(WarmCommand(timeout: 90)))
    }

    @Test func parsedOptions() throws {
        #expect(try MediaCTLMain.parse(["warm"], environment: [:]) == .command(WarmCommand()))
        #expect(try MediaCTLMain.parse(
            ["warm", "--server", "https://cache.example:8443/", "--concurrency", "64", "--policies", "P", "list.txt"],
            environment: ["MEDIACTL_STATE_DIR": "/s"])
            == .command(WarmCommand(server: "https://cache.example:8443", concurrency: 64, file: "list.txt",
                                 policiesDirectory: "P", stateDirectory: "/s")))
    }
}
