/// The options of `mediactl warm [--server URL] [--concurrency N] [--timeout SECONDS] [FILE|-]`.
public struct WarmOptions: MediaCommand {
    /// `--server URL`: the running service's base URL (`http://HOST:PORT`, no path). Default: `nil`, the
    /// listen address in `<state-dir>/serve.json`.
    public var server: String?
    /// `--concurrency N`: requests in flight at once, 1 to ``maxConcurrency``. Default: 4.
    public var concurrency: Int
    /// `--timeout SECONDS`: how long to wait for each answer, 1 to ``maxTimeout``. Default: 60.
    public var timeout: Int
    /// `FILE`: the list of paths, or `-` (the default) for standard input.
    public var file: String
    /// `--policies DIR`: the policies that say which routes are partitioned. Default: `./Policies`.
    public var policiesDirectory: String
    /// `--state-dir DIR`: where `serve.json` is looked up. Default: `$MEDIACTL_STATE_DIR`, else `./.mediactl`.
    public var stateDirectory: String

    /// The default `--concurrency`: 4.
    public static let defaultConcurrency = 4
    /// The largest `--concurrency`: 64.
    public static let maxConcurrency = 64
    /// The longest `--timeout`: 3,600 seconds.
    public static let maxTimeout = 3600

    public init(
        server: String? = nil, concurrency: Int = WarmOptions.defaultConcurrency, file: String = "-",
        policiesDirectory: String = CommandDefaults.policiesDirectory,
        stateDirectory: String = CommandDefaults.stateDirectory, timeout: Int = 60
    ) {
        self.timeout = timeout
        self.server = server
        self.concurrency = concurrency
        self.file = file
        self.policiesDirectory = policiesDirectory
        self.stateDirectory = stateDirectory
    }

    public static let declaration = CommandDeclaration<Self>(
        path: ["warm"],
        summary: "Fill the running service's cache from a list of paths.",
        arguments: [
            .parsed(
                "server", valueName: "URL",
                help: "The service's base URL, http://HOST:PORT. Default: the listen address in <state-dir>/serve.json.",
                \.server, parse: { serverBase($0).map { .success($0) } ?? .failure("expected http://HOST:PORT or https://HOST:PORT") }),
            .wholeNumber(
                "concurrency", in: 1...maxConcurrency, help: "Requests in flight at once, 1 to 64. Default: 4.",
                \.concurrency),
            .wholeNumber(
                "timeout", valueName: "SECONDS", in: 1...maxTimeout, unit: "seconds",
                help: "Seconds to wait for each answer, 1 to 3600; a path without an answer by then failed. Default: 60.",
                \.timeout),
            .policies(
                help: "Policies telling which routes are partitioned (refused: a list carries no credentials). Default: ./Policies.",
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
        defaults: { WarmOptions() })

    /// Sends every listed target to the running service (``WarmCommand``).
    public func run(in environment: CommandEnvironment, context: CommandContext) async -> ExitCode {
        var warm = WarmCommand.Environment(
            fetcher: environment.originFetcher, clock: environment.clocks.monotonic, timeout: Double(timeout))
        if let standardInput = environment.standardInput { warm.standardInput = standardInput }
        if let isTerminal = environment.standardErrorIsTerminal { warm.isTerminal = isTerminal }
        return await WarmCommand.run(self, context: context, environment: warm)
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
}
