/// The options of `mediactl serve`.
public struct ServeOptions: Sendable, Hashable {
    /// `--listen HOST:PORT`. Default: ``ListenAddress/default`` (127.0.0.1:8080).
    public var listen: ListenAddress
    /// `--policies DIR`. Default: `./Policies`.
    public var policiesDirectory: String
    /// `--state-dir DIR`. Default: `$MEDIACTL_STATE_DIR`, else `./.mediactl`.
    public var stateDirectory: String
    /// Every `--origin ROUTE=URL`, in command-line order, at most one per route. Default: empty.
    public var origins: [OriginOverride]

    public init(
        listen: ListenAddress = .default, policiesDirectory: String = CommandDefaults.policiesDirectory,
        stateDirectory: String = CommandDefaults.stateDirectory, origins: [OriginOverride] = []
    ) {
        self.listen = listen
        self.policiesDirectory = policiesDirectory
        self.stateDirectory = stateDirectory
        self.origins = origins
    }

    init(_ parsed: ParsedArguments, environment: [String: String]) throws(UsageError) {
        var listen = ListenAddress.default
        if let text = parsed.value("listen") {
            switch ListenAddress.parse(text) {
            case .success(let address): listen = address
            case .failure(let error): throw parsed.error(.invalidValue, "invalid --listen '\(text)': \(error.reason)")
            }
        }
        let origins = try OriginOverride.all(parsed)
        self.init(
            listen: listen, policiesDirectory: CommandDefaults.policiesDirectory(parsed),
            stateDirectory: CommandDefaults.stateDirectory(parsed, environment: environment), origins: origins)
    }
}
