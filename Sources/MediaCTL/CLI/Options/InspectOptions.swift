/// The options of `mediactl inspect URL`.
public struct InspectOptions: Sendable, Hashable {
    /// `URL`: an absolute `http`/`https` origin URL with a host.
    public var url: String
    /// `--policies DIR`, for the matching route and tier. Default: `./Policies`.
    public var policiesDirectory: String
    /// `--credential-file FILE`: a file holding the bearer token sent to the origin; `nil` (the default) sends none.
    public var credentialFile: String?
    /// Every `--origin ROUTE=URL`, in command-line order, at most one per route. Default: empty.
    public var origins: [OriginOverride]
    /// `--state-dir DIR`: where a signed URL's subject key is read (`keys/subject.key`) to show its partition.
    /// Default: `$MEDIACTL_STATE_DIR`, else `./.mediactl`.
    public var stateDirectory: String

    public init(url: String, policiesDirectory: String = CommandDefaults.policiesDirectory, credentialFile: String? = nil,
                origins: [OriginOverride] = [], stateDirectory: String = CommandDefaults.stateDirectory) {
        self.stateDirectory = stateDirectory
        self.url = url
        self.policiesDirectory = policiesDirectory
        self.credentialFile = credentialFile
        self.origins = origins
    }

    init(_ parsed: ParsedArguments, environment: [String: String] = [:]) throws(UsageError) {
        let url = parsed.positionals[0]
        guard OriginURL.isValid(url) else {
            throw parsed.error(.invalidValue, "invalid URL '\(url)': expected http:// or https:// with a host")
        }
        self.init(url: url, policiesDirectory: CommandDefaults.policiesDirectory(parsed),
                  credentialFile: parsed.value("credential-file"), origins: try OriginOverride.all(parsed),
                  stateDirectory: CommandDefaults.stateDirectory(parsed, environment: environment))
    }
}
