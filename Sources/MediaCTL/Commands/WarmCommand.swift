import Foundation
import HTTPCaching
import MediaCore
import MediaService

#if canImport(Glibc)
    import Glibc
#endif

/// `mediactl warm [--server URL] [--concurrency N] [--policies DIR] [--state-dir DIR] [FILE|-]`: fills the
/// running service's cache from a list of request targets (docs/cli.md, "mediactl warm").
///
/// Steps: load the policies (exit 2 on an invalid set); read the list (``WarmList``; exit 2 when unreadable,
/// over 64 MiB, or when any line is not a warmable target: every such line is named, nothing is sent);
/// find the service (`--server`, else the listen address of `<state-dir>/serve.json`, as `mediactl purge`
/// does; exit 2 when there is none); `GET` every target through it, `--concurrency` at a time, showing
/// ``WarmProgress`` on stderr; print the ``WarmSummary`` on stdout. Exit 1 when any target was refused
/// (status ≥ 400) or failed (no answer), else 0.
public struct WarmCommand: MediaCommand {
    /// `--server URL`: the running service's base URL (`http://HOST:PORT`, no path). Default: `nil`, the
    /// listen address in `<state-dir>/serve.json`.
    public var server: String?
    /// `--concurrency N`: requests in flight at once, 1 to ``maxConcurrency``. Default: 4.
    public var concurrency: Int = WarmCommand.defaultConcurrency
    /// `--timeout SECONDS`: how long to wait for each answer, 1 to ``maxTimeout``. Default: 60.
    public var timeout: Int = 60
    /// `FILE`: the list of paths, or `-` (the default) for standard input.
    public var file: String = "-"
    /// `--policies DIR`: the policies that say which routes are partitioned. Default: `./Policies`.
    public var policiesDirectory: String = CommandDefaults.policiesDirectory
    /// `--state-dir DIR`: where `serve.json` is looked up. Default: `$MEDIACTL_STATE_DIR`, else `./.mediactl`.
    public var stateDirectory: String = CommandDefaults.stateDirectory

    /// The default `--concurrency`: 4.
    public static let defaultConcurrency = 4
    /// The largest `--concurrency`: 64.
    public static let maxConcurrency = 64
    /// The longest `--timeout`: 3,600 seconds.
    public static let maxTimeout = 3600

    public static let declaration = CommandDeclaration<Self>(
        path: ["warm"],
        summary: "Fill the running service's cache from a list of paths.",
        arguments: [
            .parsed(
                "server", valueName: "URL",
                help: "The service's base URL, http://HOST:PORT. Default: the listen address in <state-dir>/serve.json.",
                \.server, parse: { serverBase($0).map { .success($0) } ?? .failure("expected http://HOST:PORT or https://HOST:PORT") }),
            .wholeNumber(
                "concurrency", in: 1...maxConcurrency, help: "Requests in flight at once, 1 to 64.",
                \.concurrency),
            .wholeNumber(
                "timeout", valueName: "SECONDS", in: 1...maxTimeout, unit: "seconds",
                help: "Seconds to wait for each answer, 1 to 3600; a path without an answer by then failed.",
                \.timeout),
            .policies(
                help: "Policies telling which routes are partitioned (refused: a list carries no credentials).",
                \.policiesDirectory),
            .stateDirectory(\.stateDirectory),
            .positional(
                "FILE|-", required: false,
                help: "Request targets, one per line (variants allowed: /catalog/a.jpg?w=144); blank lines and # comments skipped. Default: - (standard input).",
                \.file),
        ],
        notes: [
            "Every line is checked first: a line matching no route, or a route of a partitioned or bearer tier, exits 2 naming it, and nothing is sent.",
            "Progress goes to stderr (a bar on a terminal, a line every 2 s otherwise); the summary to stdout.",
            CommandTree.exitCodes(ok: "every path answered", failure: "a path was refused (status 400 or more) or failed (no answer)"),
        ],
        defaults: { Self() })

    /// Sends every listed target to the running service.
    public func run(in environment: CommandEnvironment, context: CommandContext) async -> ExitCode {
        var warm = WarmCommand.Environment(
            fetcher: environment.originFetcher, clock: environment.clocks.monotonic, timeout: Double(timeout))
        if let standardInput = environment.standardInput { warm.standardInput = standardInput }
        if let isTerminal = environment.standardErrorIsTerminal { warm.isTerminal = isTerminal }
        return await run(context: context, environment: warm)
    }

    /// `text` without a trailing `/` when it is `http://` or `https://`, a non-empty authority without
    /// user info, and no path, query or fragment; else `nil`.
    static func serverBase(_ text: String) -> String? {
        let scheme: String
        if text.hasPrefix("http://") { scheme = "http://" } else if text.hasPrefix("https://") { scheme = "https://" } else {
            return nil
        }
        var authority = text.dropFirst(scheme.count)
        if authority.hasSuffix("/") { authority = authority.dropLast() }
        guard !authority.isEmpty, !authority.contains(where: { "/?#@ ".contains($0) || $0.isNewline }) else { return nil }
        return scheme + authority
    }

    /// What the command talks to, injectable for tests.
    public struct Environment: Sendable {
        /// The HTTP client. Default: ``MediaCurl/DefaultOriginFetcher/make(note:)`` (libcurl; no cache, no cookies).
        public var fetcher: any OriginFetching
        /// Seconds on a monotonic clock, for progress and the summary's duration.
        public var clock: @Sendable () -> Double
        /// Whether standard error is a terminal (a progress bar instead of plain lines).
        public var isTerminal: Bool
        /// Reads the whole of standard input (`FILE` `-`), or `nil` past ``maximumInputBytes``.
        public var standardInput: @Sendable () throws(CommandError) -> [UInt8]?
        /// Seconds to wait for each answer. Default: 60.
        public var timeout: Double

        public init(
            fetcher: any OriginFetching, clock: @escaping @Sendable () -> Double = WarmCommand.monotonicSeconds,
            isTerminal: Bool = isatty(2) == 1,
            standardInput: @escaping @Sendable () throws(CommandError) -> [UInt8]? = WarmCommand.readStandardInput,
            timeout: Double = 60
        ) {
            self.fetcher = fetcher
            self.clock = clock
            self.isTerminal = isTerminal
            self.standardInput = standardInput
            self.timeout = timeout
        }
    }

    /// The largest list read: 64 MiB.
    public static let maximumInputBytes = 64 << 20
    /// The largest answer body accepted (and discarded): 256 MiB.
    public static let maximumBodyBytes = 256 << 20

    func run(context: CommandContext, environment: Environment) async -> ExitCode {
        do throws(CommandError) {
            let policies = try ServiceSetup.loadPolicies(policiesDirectory)
            let list = WarmList.parse(try Self.readList(file, environment: environment))
            let problems = list.problems(policies: policies)
            guard problems.isEmpty else {
                throw CommandError(.invalidFile, problems.joined(separator: "\nmediactl: "), exitCode: .unusableInput)
            }
            let base: String
            if let server = server { base = server } else { base = try Self.serverFromStateFile(stateDirectory) }
            let started = environment.clock()
            let outcomes = await Self.warm(list, base: base, concurrency: concurrency, context: context,
                                      environment: environment, started: started)
            var summary = WarmSummary()
            for (entry, outcome) in zip(list.entries, outcomes) { summary.add(outcome, for: entry) }
            context.stdout.write(summary.text(seconds: environment.clock() - started))
            return summary.isFailure ? .failure : .success
        } catch {
            return context.fail(error)
        }
    }
}
