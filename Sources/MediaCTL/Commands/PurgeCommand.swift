import Foundation
import MediaPolicy
import MediaService
import MediaSigning

#if canImport(Glibc)
    import Glibc
#endif

/// `mediactl purge (--route NAME | --credential-file FILE | --subject SUB | --tag T [--soft] | --all) [--state-dir DIR]`; with `--replicas FILE`
/// instead of `--state-dir`, every replica of a fleet (``PurgeFanOut``).
///
/// The running `mediactl serve` owns the audit log lock and the per-process partition key, so the
/// purge is asked of it: read `<state>/serve.json` (``ServeStateFile``), then
/// `POST /_mediactl/purge` (``AdminEndpoint``) on its admin listener (`admin`; `listen` in a serve.json of an
/// earlier version, which has none) with `{"route":…}`, `{"credential":…}`, `{"subject":…}`, `{"tag":…}` (with
/// `"soft":true` for `--soft`) or `{"all":true}`.
///
/// Output: `purged N entries`, or `marked N entries stale` with `--soft` (exit 0). Errors (stderr, `mediactl: ` prefix):
/// - `state directory 'X' does not exist` (exit 2);
/// - `no running service for state directory X (no serve.json)` (exit 2); the same with
///   `(serve.json names pid N, which is not running)` or `(cannot connect to HOST:PORT: …)`;
/// - `the service for state directory X runs without an admin listener (--admin-listen off)` (exit 2);
/// - credential file problems from ``CredentialFile`` (exit 2);
/// - `the service at HOST:PORT refused the purge: <status> <code>: <detail>`: exit 2 for 400, 401,
///   404 and 413 (a bad request: unknown route, stale admin token), else exit 1.
public struct PurgeCommand: MediaCommand {
    /// What to purge: exactly one of `--route NAME`, `--credential-file FILE`, `--subject SUB`, `--url PATH`, `--tag T`,
    /// `--all`.
    public enum Target: Sendable, Hashable {
        /// `--route NAME`: every object of the route.
        case route(String)
        /// `--credential-file FILE`: the partition of the credential read from the file.
        case credentialFile(String)
        /// `--subject SUB`: the partition of a signed-URL subject (docs/signed-urls.md).
        case subject(String)
        /// `--url PATH`: one URL as clients request it, in every partition, with its derived images.
        case url(String)
        /// `--tag T`: every object carrying cache tag T (docs/operations.md, "Cache tags and soft purge").
        case tag(String)
        /// `--all`: every stored object.
        case all
    }

    /// What to purge.
    public var target: Target = .all
    /// `--soft` (only with `--tag`): mark the objects stale instead of removing them. Default: `false`.
    public var soft: Bool = false
    /// `--state-dir DIR`. Default: `$MEDIACTL_STATE_DIR`, else `./.mediactl`. Unused with ``replicasFile``.
    public var stateDirectory: String = CommandDefaults.stateDirectory
    /// `--replicas FILE`: purge every replica the file names (``PurgeReplicasFile``) instead of the one
    /// service of ``stateDirectory``; `nil` when not given. Cannot be combined with `--state-dir`.
    public var replicasFile: String?
    /// `--receipt FILE` (only with `--credential-file` or `--subject`): write the signed erasure receipt the service
    /// answers with to FILE (docs/audit-format.md, "Erasure receipts"); `nil` when not given.
    public var receiptFile: String?
    /// `--admin-token-file FILE` (only with ``replicasFile``): the admin token (``AdminTokenFile``) sent to every
    /// replica whose line names no token source; `nil` when not given.
    public var adminTokenFile: String?

    /// `--route NAME`: the route of a ``Target/route(_:)`` target; setting it makes that the target.
    var route: String? {
        get { if case .route(let name) = target { name } else { nil } }
        set { if let newValue { target = .route(newValue) } }
    }

    /// `--credential-file FILE`: the file of a ``Target/credentialFile(_:)`` target; setting it makes that the target.
    var credentialFile: String? {
        get { if case .credentialFile(let file) = target { file } else { nil } }
        set { if let newValue { target = .credentialFile(newValue) } }
    }

    /// `--subject SUB`: the subject of a ``Target/subject(_:)`` target; setting it makes that the target.
    var subject: String? {
        get { if case .subject(let subject) = target { subject } else { nil } }
        set { if let newValue { target = .subject(newValue) } }
    }

    /// `--url PATH`: the URL of a ``Target/url(_:)`` target; setting it makes that the target.
    var url: String? {
        get { if case .url(let url) = target { url } else { nil } }
        set { if let newValue { target = .url(newValue) } }
    }

    /// `--tag T`: the tag of a ``Target/tag(_:)`` target; setting it makes that the target.
    var tag: String? {
        get { if case .tag(let tag) = target { tag } else { nil } }
        set { if let newValue { target = .tag(newValue) } }
    }

    /// `--all`: whether the target is ``Target/all``; setting `true` makes that the target.
    var all: Bool {
        get { target == .all }
        set { if newValue { target = .all } }
    }

    /// The targets: exactly one is required.
    static let target = OptionGroup("target", required: true)
    /// Where the service is found: one state directory, or the replicas of a file.
    static let destination = OptionGroup("destination", required: false)

    public static let declaration = CommandDeclaration<Self>(
        path: ["purge"],
        summary: "Remove stored objects of one route, of one credential's or subject's partition, of one URL, of one cache tag, or all of them.",
        arguments: [
            .text("route", valueName: "NAME", help: "Purge every object of route NAME.", \.route).oneOf(target),
            .text(
                "credential-file", valueName: "FILE",
                help: "Purge the partition of the credential read from FILE (the token is never an argument).",
                \.credentialFile
            ).oneOf(target),
            .option(
                "subject", valueName: "SUB",
                help: "Purge the partition of signed-URL subject SUB (its logout or erasure; docs/signed-urls.md).",
                \.subject
            ) { input throws(UsageError) in
                guard let subject = input.last else { return nil }
                guard SignedURLParameters.isSubject(subject) else {
                    throw input.error(.invalidValue, "invalid --subject: expected 1 to 128 of A-Z a-z 0-9 . _ -")
                }
                return subject
            }.oneOf(target),
            .option(
                "url", valueName: "PATH",
                help: "Purge one URL as clients request it (/catalog/a.jpg), in every partition, with its derived images.",
                \.url
            ) { input throws(UsageError) in
                guard let url = input.last else { return nil }
                guard url.hasPrefix("/"), !url.utf8.contains(where: { $0 <= 0x20 || $0 >= 0x7F }) else {
                    throw input.error(.invalidValue, "invalid --url: expected a path as clients request it, e.g. /catalog/a.jpg")
                }
                return url
            }.oneOf(target),
            .option(
                "tag", valueName: "T",
                help: "Purge every object whose origin answer named cache tag T (the tier's tagHeader), matched exactly.",
                \.tag
            ) { input throws(UsageError) in
                guard let tag = input.last else { return nil }
                guard Tier.isCacheTag(tag) else {
                    throw input.error(.invalidValue, "invalid --tag: expected 1 to 256 visible ASCII characters (no space)")
                }
                return tag
            }.oneOf(target),
            .flag("soft", help: "With --tag: mark the objects stale (revalidated on the next request) instead of removing them.", \.soft)
                .needs("tag"),
            .flag("all", help: "Purge every stored object.", \.all).oneOf(target),
            .stateDirectory(\.stateDirectory).oneOf(destination),
            .text(
                "replicas", valueName: "FILE",
                help: "Purge every replica FILE names, in parallel: lines 'ADMIN-URL STATE-DIR-OR-SERVE.JSON' (docs/scale-out.md).",
                \.replicasFile
            ).oneOf(destination),
            .text(
                "receipt", valueName: "FILE",
                help: "With --credential-file or --subject: write the signed erasure receipt to FILE (check it with 'audit verify-receipt').",
                \.receiptFile),
            .text(
                "admin-token-file", valueName: "FILE",
                help: "With --replicas: the admin token (mode 0600) for replica lines without a token source.",
                \.adminTokenFile
            ).needs("replicas"),
        ],
        notes: [
            "Exactly one of --route, --credential-file, --subject, --url, --tag and --all is required.",
            "Asks the running 'mediactl serve' of the state directory (its serve.json); with none running, exits 2.",
            CommandTree.exitCodes(ok: "purged", failure: "the service failed the purge (5xx), or a replica of --replicas was not purged"),
        ],
        defaults: { Self() })

    /// Asks the running service (or every replica of `--replicas`) to purge.
    public func run(in environment: CommandEnvironment, context: CommandContext) async -> ExitCode {
        await run(context: context, client: PurgeClient(configuration: environment.purgeClient))
    }

    func run(context: CommandContext, client: PurgeClient) async -> ExitCode {
        if receiptFile != nil {
            switch target {
            case .credentialFile, .subject: break
            default: return context.fail(CommandError(.invalidOptions, "option --receipt needs --credential-file or --subject", exitCode: .usage))
            }
        }
        if let replicas = replicasFile {
            return await PurgeFanOut.run(self, replicasFile: replicas, context: context, client: client)
        }
        let state = stateDirectory
        do throws(CommandError) {
            let (serve, admin) = try Self.runningService(state)
            let body = try Self.requestBody(target, soft: soft, receipt: receiptFile != nil)
            let answer: PurgeClient.Answer
            do {
                answer = try await client.post(body: body, listen: admin, adminToken: serve.adminToken)
            } catch {
                throw Self.noService(state, "cannot connect to \(admin): \(error.localizedDescription)")
            }
            let count = try Self.purgedCount(answer, listen: admin)
            if let receiptFile {
                try Self.writeReceipt(answer, to: receiptFile, listen: admin)
                context.stdout.writeLine(Self.done(count, soft: soft) + "; receipt written to \(receiptFile)")
                return .success
            }
            context.stdout.writeLine(Self.done(count, soft: soft))
            return .success
        } catch {
            return context.fail(error)
        }
    }
}
