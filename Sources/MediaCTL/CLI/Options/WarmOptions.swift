/// The options of `mediactl warm [--server URL] [--concurrency N] [FILE|-]`.
public struct WarmOptions: Sendable, Hashable {
    /// `--server URL`: the running service's base URL (`http://HOST:PORT`, no path). Default: `nil`, the
    /// listen address in `<state-dir>/serve.json`.
    public var server: String?
    /// `--concurrency N`: requests in flight at once, 1 to ``maxConcurrency``. Default: 4.
    public var concurrency: Int
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

    public init(
        server: String? = nil, concurrency: Int = WarmOptions.defaultConcurrency, file: String = "-",
        policiesDirectory: String = CommandDefaults.policiesDirectory,
        stateDirectory: String = CommandDefaults.stateDirectory
    ) {
        self.server = server
        self.concurrency = concurrency
        self.file = file
        self.policiesDirectory = policiesDirectory
        self.stateDirectory = stateDirectory
    }

    init(_ parsed: ParsedArguments, environment: [String: String]) throws(UsageError) {
        var server: String?
        if let text = parsed.value("server") {
            guard let base = Self.serverBase(text) else {
                throw parsed.error(.invalidValue, "invalid --server '\(text)': expected http://HOST:PORT or https://HOST:PORT")
            }
            server = base
        }
        var concurrency = Self.defaultConcurrency
        if let text = parsed.value("concurrency") {
            guard text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let count = Int(text),
                  (1...Self.maxConcurrency).contains(count)
            else {
                throw parsed.error(
                    .invalidValue, "invalid --concurrency '\(text)': expected a whole number from 1 to \(Self.maxConcurrency)")
            }
            concurrency = count
        }
        self.init(
            server: server, concurrency: concurrency, file: parsed.positionals.first ?? "-",
            policiesDirectory: CommandDefaults.policiesDirectory(parsed),
            stateDirectory: CommandDefaults.stateDirectory(parsed, environment: environment))
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
