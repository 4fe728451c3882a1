import Foundation

/// `mediactl purge (--route NAME | --credential-file FILE | --all) --replicas FILE`: the same purge on every
/// replica of a fleet (docs/scale-out.md, "Purge across replicas").
///
/// 1. Reads ``PurgeReplicasFile``, the credential file (if any) and every token source before anything is sent:
///    input problems exit 2 and purge nothing.
/// 2. Sends `POST /_mediactl/purge` to every replica at once. Each replica gets up to ``Configuration/attempts``
///    attempts, ``Configuration/retryDelay`` apart, repeated only when the connection failed (refused, reset,
///    timed out) or the replica answered 5xx; a 4xx answer (stale token, unknown route) is final.
/// 3. Prints, in file order, one line per replica and the total (stdout):
///    ```
///    http://10.0.0.11:9091: purged 3 entries
///    http://10.0.0.12:9091: failed
///    total: purged 3 entries on 1 of 2 replicas
///    ```
///    and for every failed replica a reason on stderr, then the closing line naming them all:
///    ```
///    mediactl: http://10.0.0.12:9091: cannot connect after 3 attempts: <transport error>
///    mediactl: purge failed on 1 of 2 replicas: http://10.0.0.12:9091
///    ```
///    Other reasons: `refused the purge: <status> <code>: <detail>` (4xx, no retry),
///    `answered <status> <code> after 3 attempts: <detail>` (5xx), `no serve.json in state directory D (is the
///    replica running?)`, `the service for state directory D runs without an admin listener (--admin-listen off)`.
///
/// Exit status: 0 when every replica answered `200`, 1 when any did not, 2 for unusable input.
enum PurgeFanOut {
    /// Retry tunables.
    struct Configuration: Sendable, Hashable {
        /// Attempts per replica, at least 1. Default: 3.
        var attempts: Int = 3
        /// Pause between two attempts on one replica. Default: 200 ms.
        var retryDelay: Duration = .milliseconds(200)
    }

    /// Sends one purge: `(authority, body, adminToken)` → the answer; throws when the connection failed.
    typealias Send = @Sendable (_ authority: String, _ body: [UInt8], _ adminToken: String) async throws -> PurgeClient.Answer

    /// What became of one replica.
    enum Outcome: Sendable, Hashable {
        case purged(Int)
        case failed(String)
    }

    static func run(
        _ options: PurgeCommand, replicasFile path: String, context: CommandContext, client: PurgeClient,
        configuration: Configuration = Configuration()
    ) async -> ExitCode {
        await run(options, replicasFile: path, context: context, configuration: configuration) { authority, body, token in
            try await client.post(body: body, listen: authority, adminToken: token)
        }
    }

    static func run(
        _ options: PurgeCommand, replicasFile path: String, context: CommandContext, configuration: Configuration,
        send: @escaping Send
    ) async -> ExitCode {
        let replicas: [PurgeReplicasFile.Replica]
        let tokens: [Result<String, Failure>]
        let body: [UInt8]
        do throws(CommandError) {
            let shared = try options.adminTokenFile.map { file throws(CommandError) in try AdminTokenFile.read(file) }
            replicas = try PurgeReplicasFile.read(path, sharedToken: shared != nil).replicas
            body = try PurgeCommand.requestBody(options.target, soft: options.soft, receipt: options.receiptFile != nil)
            tokens = try replicas.map { replica throws(CommandError) in
                guard let source = replica.tokenSource else { return .success(shared!) }
                return try token(fromSource: source)
            }
        } catch {
            return context.fail(error)
        }
        let answered = await withTaskGroup(of: (Int, Outcome, [UInt8]?).self) { group in
            for (index, replica) in replicas.enumerated() {
                group.addTask {
                    switch tokens[index] {
                    case .failure(let failure): return (index, .failed(failure.reason), nil)
                    case .success(let token):
                        let (outcome, body) = await attempt(replica, body: body, token: token, configuration: configuration, send: send)
                        return (index, outcome, body)
                    }
                }
            }
            var answered = [(Outcome, [UInt8]?)](repeating: (.failed(""), nil), count: replicas.count)
            for await (index, outcome, body) in group { answered[index] = (outcome, body) }
            return answered
        }
        let outcomes = answered.map(\.0)
        if let receiptFile = options.receiptFile {
            do throws(CommandError) {
                try FleetReceipt.write(replicas: replicas, answered: answered, to: receiptFile)
            } catch {
                return context.fail(error)
            }
        }
        return report(replicas: replicas, outcomes: outcomes, soft: options.soft, context: context)
    }

    /// Prints the table and the reasons; the exit status.
    static func report(replicas: [PurgeReplicasFile.Replica], outcomes: [Outcome], soft: Bool = false,
                       context: CommandContext) -> ExitCode {
        var total = 0
        var failed: [(url: String, reason: String)] = []
        for (replica, outcome) in zip(replicas, outcomes) {
            switch outcome {
            case .purged(let count):
                total += count
                context.stdout.writeLine("\(replica.url): \(PurgeCommand.done(count, soft: soft))")
            case .failed(let reason):
                failed.append((replica.url, reason))
                context.stdout.writeLine("\(replica.url): failed")
            }
        }
        let purged = replicas.count - failed.count
        context.stdout.writeLine("total: \(PurgeCommand.done(total, soft: soft)) on \(purged) of \(replicas.count) replicas")
        guard !failed.isEmpty else { return .success }
        for (url, reason) in failed { context.stderr.writeLine("mediactl: \(url): \(reason)") }
        context.stderr.writeLine(
            "mediactl: purge failed on \(failed.count) of \(replicas.count) replicas: "
                + failed.map(\.url).joined(separator: ", "))
        return .failure
    }

    struct Failure: Error, Hashable { let reason: String }

    /// The admin token in a replica's token source (its state directory or a serve.json): a replica-level failure
    /// when the state directory has no serve.json or the service no admin listener.
    /// - Throws: ``CommandError`` (exit 2) for an unreadable or invalid serve.json.
    static func token(fromSource source: String) throws(CommandError) -> Result<String, Failure> {
        var isDirectory: ObjCBool = false
        _ = FileManager.default.fileExists(atPath: source, isDirectory: &isDirectory)
        let serve: ServeStateFile
        if isDirectory.boolValue {
            guard let file = try ServeStateFile.read(stateDirectory: source) else {
                return .failure(
                    Failure(reason: "no serve.json in state directory \(source) (is the replica running?)"))
            }
            serve = file
        } else {
            guard let bytes = try FileAccess.readFile(source, limit: ServeStateFile.maximumBytes, what: "serve.json"),
                let file = try? JSONDecoder().decode(ServeStateFile.self, from: Data(bytes))
            else {
                throw CommandError(
                    .invalidFile,
                    "serve.json '\(source)' is not a serve.json document ({\"pid\",\"listen\",\"adminToken\"})",
                    exitCode: .unusableInput)
            }
            serve = file
        }
        if serve.admin == ServeStateFile.adminOff {
            return .failure(
                Failure(
                    reason: "the service for state directory \(source) runs without an admin listener (--admin-listen off)"))
        }
        return .success(serve.adminToken)
    }

    /// One replica's purge with the bounded retry.
    static func purge(
        _ replica: PurgeReplicasFile.Replica, body: [UInt8], token: String, configuration: Configuration, send: Send
    ) async -> Outcome {
        await attempt(replica, body: body, token: token, configuration: configuration, send: send).0
    }

    /// ``purge(_:body:token:configuration:send:)``, with the body of its `200` answer.
    static func attempt(
        _ replica: PurgeReplicasFile.Replica, body: [UInt8], token: String, configuration: Configuration, send: Send
    ) async -> (Outcome, [UInt8]?) {
        let attempts = max(1, configuration.attempts)
        var last = ""
        for attempt in 1...attempts {
            if attempt > 1 { try? await Task.sleep(for: configuration.retryDelay) }
            let answer: PurgeClient.Answer
            do {
                answer = try await send(replica.authority, body, token)
            } catch {
                last = "cannot connect after \(attempt) \(attempt == 1 ? "attempt" : "attempts"): \(error.localizedDescription)"
                continue
            }
            let json = try? JSONSerialization.jsonObject(with: Data(answer.body)) as? [String: Any]
            if answer.status == 200, let count = json?["purged"] as? Int { return (.purged(count), answer.body) }
            let code = json?["code"] as? String ?? "unexpected-answer"
            let detail = json?["detail"] as? String ?? "\(answer.body.count) bytes of unexpected body"
            guard answer.status >= 500 else {
                return (.failed("refused the purge: \(answer.status) \(code): \(detail)"), nil)
            }
            last = "answered \(answer.status) \(code) after \(attempt) \(attempt == 1 ? "attempt" : "attempts"): \(detail)"
        }
        return (.failed(last), nil)
    }
}
