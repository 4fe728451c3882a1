import Foundation
import HTTPServer
import MediaAudit
import MediaCurl
import MediaPolicy
import MediaServer
import MediaService

#if canImport(Glibc)
    import Glibc
#endif

/// `mediactl demo [--keep-serving]`: works from any directory with nothing set up.
///
/// Starts an embedded origin (``DemoOrigin``, the bundled samples) and the media service with the
/// built-in default policy (``DemoPolicy``) on two loopback ports and a fresh temporary state
/// directory, plays ``DemoScript/steps`` over real HTTP, prints the table (``DemoTable``), then
/// stops the service and prints the `mediactl audit` report of the state directory. The temporary
/// directory is removed unless `--keep-serving`, which keeps both servers running, prints curl
/// commands to try and waits for Ctrl-C (SIGINT) or SIGTERM.
public struct DemoCommand: MediaCommand {
    /// `--keep-serving`: keep the service running after the walkthrough. Default: `false`.
    public var keepServing: Bool = false

    public static let declaration = CommandDeclaration<Self>(
        path: ["demo"],
        summary: "Run an embedded origin with the bundled sample images and the default policies, and show every tier.",
        arguments: [.flag("keep-serving", help: "Keep the service running after the walkthrough.", \.keepServing)],
        notes: [CommandTree.exitCodes(ok: "every step as expected and the audit clean", failure: "a step or the audit failed")],
        defaults: { Self() })

    /// Runs the walkthrough; with `--keep-serving`, until ``CommandEnvironment/stop``.
    public func run(in environment: CommandEnvironment, context: CommandContext) async -> ExitCode {
        await run(context: context, configuration: .init(until: environment.stop))
    }

    /// Runs the demo.
    /// - Returns: 0 when every row is as expected and the audit report is clean; 1 otherwise (each
    ///   unexpected row and the violations are printed); 2 when the samples or ports are unusable.
    func run(context: CommandContext, configuration: Configuration) async -> ExitCode {
        let running = DemoRuntime()
        do {
            let status = try await demo(context: context, configuration: configuration, running: running)
            await running.shutDown(removingState: !keepServing)
            return status
        } catch {
            await running.shutDown(removingState: true)
            return context.fail(error)
        }
    }

    private func demo(
        context: CommandContext, configuration: Configuration, running: DemoRuntime
    ) async throws(CommandError) -> ExitCode {
        let stateDirectory = try Self.makeTemporaryDirectory(in: configuration.temporaryDirectory)
        running.stateDirectory = stateDirectory
        let signing = try DemoSigning(stateDirectory: stateDirectory)
        let origin = try DemoOrigin(samples: DemoSamples.all(), serviceToken: signing.token)
        if keepServing && configuration.until == nil { running.signals = try ServeCommand.watch([SIGINT, SIGTERM]) }
        let originServer = HTTPServer(configuration: .init(host: "127.0.0.1", port: 0), handler: origin)
        let originBase = "http://127.0.0.1:\(try Self.start(originServer))"
        running.originServer = originServer
        let state = stateDirectory
        running.stateDirectory = state
        let policies = try DemoPolicy.policies(originBase: originBase, signing: signing)
        let service = try ServiceSetup.openService(
            policies: policies, stateDirectory: state, fetcher: DefaultOriginFetcher.make())
        running.service = service
        let recorder = OutcomeRecorder()
        // With --keep-serving the demo is a running service like `serve`: an admin listener on a free
        // loopback port and an admin token in <state>/serve.json, so `mediactl purge --state-dir <state>` works.
        let adminToken = keepServing ? try? ServeStateFile.makeAdminToken() : nil
        let listener = HTTPServer.Configuration(host: "127.0.0.1", port: 0)
        let server = MediaServer(
            service: service,
            configuration: MediaServer.Configuration(
                server: listener,
                admin: adminToken == nil ? nil : MediaServer.Configuration.admin(like: listener, host: "127.0.0.1", port: 0),
                sweepInterval: nil),
            purge: adminToken.map { AdminEndpoint.handler(service: service, adminToken: $0) },
            auditTiles: AuditTileEndpoint(stateDirectory: state), observer: recorder.observer)
        running.server = server
        let walk = DemoWalk()
        let signals = running.signals
        let reason: String
        do {
            reason = try await server.run(until: .returns { [self] in
                guard let ports = walk.ports else { return "not listening" }
                let base = "http://127.0.0.1:\(ports.port)"
                let adminBase = ports.adminPort.map { "http://127.0.0.1:\($0)" } ?? base
                configuration.onServing?(base, originBase, state)
                do throws(CommandError) {
                    let found = try await walkthrough(
                        context: context, configuration: configuration, base: base, adminBase: adminBase,
                        originBase: originBase, origin: origin, service: service, recorder: recorder, policies: policies,
                        signing: signing, state: state, signals: signals)
                    walk.finish(.success(found.walked))
                    return found.reason
                } catch {
                    walk.finish(.failure(error))
                    return "failed"
                }
            }) { (ports) throws(Never) in
                walk.ports = ports
                if let adminToken, let adminPort = ports.adminPort {
                    try? ServeStateFile(pid: getpid(), listen: "127.0.0.1:\(ports.port)", admin: "127.0.0.1:\(adminPort)",
                                        adminToken: adminToken)
                        .write(stateDirectory: state)
                }
            }
        } catch {
            switch error {
            case .listener(let failure):
                throw ServeCommand.listenError(failure.error, address: ListenAddress(host: "127.0.0.1", port: 0))
            case .whenListening(let never):
                switch never {}
            }
        }
        let (rows, kept) = try walk.result()
        let report: AuditReport
        if let kept {
            report = kept
            context.diagnose("\(reason): stopping the demo; state kept in \(state)")
        } else {
            await running.stopService()
            report = try Self.audit(state, Self.allowedStorage(policies))
            context.stdout.write("\n" + report.text)
        }
        var status = ExitCode.success
        for row in rows where !row.isExpected {
            context.diagnose(
                "row \(row.number) (\(row.step.path), \(row.step.user.rawValue)): expected \(row.step.expectation.summary), "
                    + "got \(row.status) \(row.cacheStatus ?? "without Cache-Status")"
                    + (row.checkFailure.map { "; \($0)" } ?? ""))
            status = .failure
        }
        if !report.isClean {
            context.diagnose("the audit report of the demo is not clean")
            status = .failure
        }
        return status
    }

    /// The walkthrough while the service listens at `base`: the script played and its table printed; with
    /// `--keep-serving`, the audit report and the hints printed, then the wait for `until` or a stopping signal.
    /// - Returns: the rows, the report when made here (with `--keep-serving`), and why the wait ended.
    private func walkthrough(
        context: CommandContext, configuration: Configuration, base: String, adminBase: String, originBase: String,
        origin: DemoOrigin, service: MediaService, recorder: OutcomeRecorder, policies: PolicySet, signing: DemoSigning,
        state: String, signals: SignalWatcher?
    ) async throws(CommandError) -> (walked: DemoWalk.Walked, reason: String) {
        context.stdout.writeLine("mediactl demo: the media service at \(base) in front of an embedded origin at \(originBase)")
        context.stdout.writeLine("  (bundled sample images, built-in default policy, state directory \(state))")
        context.stdout.writeLine("")
        let rows = try await play(base: base, recorder: recorder, policies: policies, signing: signing)
        recorder.stop()
        context.stdout.write(DemoTable.render(rows))
        let fromStorage = rows.filter { $0.step.expectation == .hit && $0.isExpected }.count
        let refused = rows.filter { $0.cacheStatus == nil }.count
        context.stdout.writeLine(
            "\nthe origin answered \(origin.requestCount) of \(rows.count) requests; "
                + "\(fromStorage) came from storage, \(refused) refused before any lookup")
        guard keepServing else { return ((rows, nil), "walkthrough done") }
        // Write-behind: the last misses' files land after their answers; the report shows them.
        service.flushWrites()
        let report = try Self.audit(state, Self.allowedStorage(policies))
        context.stdout.write("\n" + report.text)
        // The tiers the audit judges by, in a file `mediactl audit --policies` can read from anywhere.
        let policiesCopy = state + "-policies"
        try? FileManager.default.createDirectory(atPath: policiesCopy, withIntermediateDirectories: true)
        try? DemoPolicy.text.write(toFile: policiesCopy + "/default.json", atomically: true, encoding: .utf8)
        try? signing.policyText.write(toFile: policiesCopy + "/signed.json", atomically: true, encoding: .utf8)
        context.stdout.write(Self.tryItText(base: base, admin: adminBase, state: state, policies: policiesCopy))
        let reason: String
        if let until = configuration.until {
            reason = await until()
        } else {
            reason = MediaServer.signalName(await signals?.first(of: [SIGINT, SIGTERM]))
        }
        return ((rows, report), reason)
    }

    /// The storage each tier allows, as the audit judges it.
    static func allowedStorage(_ policies: PolicySet) -> [String: AuditStorage] {
        policies.tiers.mapValues { AuditStorage(rawValue: $0.storage.rawValue) ?? .none }
    }

    /// Plays the script, one request at a time.
    private func play(base: String, recorder: OutcomeRecorder, policies: PolicySet, signing: DemoSigning) async throws(CommandError)
        -> [DemoRow]
    {
        let client = DemoClient()
        var rows: [DemoRow] = []
        var storedIn: [String: String] = [:]
        for (index, step) in DemoScript.steps.enumerated() {
            let answer: DemoClient.Answer
            let target = step.user.subject.map { signing.sign(step.path, subject: $0) } ?? step.path
            do {
                answer = try await client.get(base, target, token: step.user.token)
            } catch {
                throw CommandError(
                    .demoFailed, "request \(index + 1) (\(step.path)) failed: \(error.reason)", exitCode: .failure)
            }
            let outcome = recorder.take(target: target)
            let partitioned = outcome?.tier.flatMap { policies.tier(named: $0) }?.partition == .credential
            let slot = step.path + "|" + (partitioned ? step.user.rawValue : "")
            let storage = Self.storageText(outcome, status: answer.status, storedIn: storedIn[slot])
            if case .stored(let storageClass)? = outcome?.storage, storageClass != .none { storedIn[slot] = storageClass.rawValue }
            rows.append(
                DemoRow(
                    number: index + 1, step: step, status: answer.status, cacheStatus: answer.cacheStatus,
                    storage: storage, bytes: answer.bytes,
                    checkFailure: step.check.flatMap { DemoBodyCheck.failure(of: $0, in: answer.body) }))
        }
        return rows
    }
}
