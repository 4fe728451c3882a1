import Foundation
import MediaServer
import MediaService

/// `mediactl reload [--state-dir DIR]`: asks the running `mediactl serve` of the state directory to re-read
/// its policies (docs/operations.md, "Reload"), as `SIGHUP` does, and reports the validation result:
/// read `<state>/serve.json` (``ServeStateFile``), then `POST /_mediactl/admin/reload` (``ReloadEndpoint``) on
/// its admin listener with the admin token.
///
/// Output: `reloaded: sha256 <digest> (R routes, T tiers; N stored responses removed)` (exit 0). Errors
/// (stderr, `mediactl: ` prefix):
/// - an invalid policy set: each problem exactly as `mediactl policy check` prints it (file, key path,
///   problem, allowed values), then `reload failed: N problem(s) in DIR; the policies in force stay (sha256 …)`
///   (exit 1);
/// - the service failed the swap: `the service at HOST:PORT failed the reload: cannot open the stores of tier t: …;
///   the policies in force stay` (the service's reason, exit 1);
/// - no service, no admin listener, a stale token: as ``PurgeCommand`` (exit 2).
public struct ReloadCommand: MediaCommand {
    /// `--state-dir DIR`. Default: `$MEDIACTL_STATE_DIR`, else `./.mediactl`.
    public var stateDirectory: String = CommandDefaults.stateDirectory

    public static let declaration = CommandDeclaration<Self>(
        path: ["reload"],
        summary: "Re-read the policies of the running service without a restart.",
        arguments: [.stateDirectory(\.stateDirectory)],
        notes: [
            "Asks the running 'mediactl serve' of the state directory (its serve.json) on its admin listener, as SIGHUP does; "
                + "an invalid policy set is refused, its problems printed as 'policy check' prints them, and the policies in force stay.",
            CommandTree.exitCodes(ok: "the new policies are in force", failure: "the service refused them (invalid policies) or failed the reload"),
        ],
        defaults: { Self() })

    /// Asks the running service to reload.
    public func run(in environment: CommandEnvironment, context: CommandContext) async -> ExitCode {
        await run(context: context, client: PurgeClient(configuration: environment.purgeClient))
    }

    func run(context: CommandContext, client: PurgeClient) async -> ExitCode {
        let state = stateDirectory
        do throws(CommandError) {
            let (serve, admin) = try PurgeCommand.runningService(state)
            let answer: PurgeClient.Answer
            do {
                answer = try await client.post(path: AdminHTTPHandler.reloadPath, body: [], listen: admin,
                                               adminToken: serve.adminToken)
            } catch {
                throw PurgeCommand.noService(state, "cannot connect to \(admin): \(error.localizedDescription)")
            }
            context.stdout.writeLine(try Self.summary(answer, listen: admin, context: context))
            return .success
        } catch {
            return context.fail(error)
        }
    }

    /// The success line of a 200 answer.
    /// - Throws: ``CommandError`` `reload-refused` (exit 1) for a 422, after printing its problems;
    ///   `service-refused` for any other answer (exit 2 for 400, 401, 404 and 413, else 1).
    static func summary(_ answer: PurgeClient.Answer, listen: String, context: CommandContext) throws(CommandError) -> String {
        let json = try? JSONSerialization.jsonObject(with: Data(answer.body)) as? [String: Any]
        if answer.status == 200, let digest = json?["digest"] as? String, let routes = json?["routes"] as? Int,
           let tiers = json?["tiers"] as? Int, let removed = json?["removed"] as? Int
        {
            return "reloaded: sha256 \(digest) (\(routes) route\(routes == 1 ? "" : "s"), \(tiers) tier\(tiers == 1 ? "" : "s"); "
                + "\(removed) stored response\(removed == 1 ? "" : "s") removed)"
        }
        let code = json?["code"] as? String ?? "unexpected-answer"
        let detail = json?["detail"] as? String ?? "\(answer.body.count) bytes of unexpected body"
        if answer.status == 422, code == "invalid-policy" {
            for problem in json?["problems"] as? [String] ?? [] { context.diagnose(problem) }
            throw CommandError(.reloadRefused, detail, exitCode: .failure)
        }
        if answer.status == 500, code == "reload-failed" {
            throw CommandError(.serviceRefused, "the service at \(listen) failed the reload: \(detail)", exitCode: .failure)
        }
        let exitCode: ExitCode = [400, 401, 404, 413].contains(answer.status) ? .unusableInput : .failure
        throw CommandError(
            .serviceRefused, "the service at \(listen) refused the reload: \(answer.status) \(code): \(detail)",
            exitCode: exitCode)
    }
}
