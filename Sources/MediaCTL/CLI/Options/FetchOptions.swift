/// The options of `mediactl fetch PATH`.
public struct FetchOptions: Sendable, Hashable {
    /// `PATH`: the request target, starting with `/` (query allowed), such as `/catalog/a.jpg?v=2`.
    public var path: String
    /// Every `--header 'Name: value'`, in command-line order. Default: empty.
    public var headers: [RequestHeader]
    /// `--credential-file FILE`: a file holding the bearer token to send; `nil` (the default) sends none.
    public var credentialFile: String?
    /// `--output FILE`: where the body goes; `nil` (the default) writes no body.
    public var outputFile: String?
    /// `--json`: one JSON document instead of text. Default: `false`.
    public var json: Bool
    /// `--policies DIR`. Default: `./Policies`.
    public var policiesDirectory: String
    /// `--state-dir DIR`. Default: `$MEDIACTL_STATE_DIR`, else `./.mediactl`.
    public var stateDirectory: String
    /// Every `--origin ROUTE=URL`, as `serve --origin`: replaces route ROUTE's origin base URL. Default: empty.
    public var origins: [OriginOverride]

    public init(
        path: String, headers: [RequestHeader] = [], credentialFile: String? = nil, outputFile: String? = nil,
        json: Bool = false,
        policiesDirectory: String = CommandDefaults.policiesDirectory,
        stateDirectory: String = CommandDefaults.stateDirectory, origins: [OriginOverride] = []
    ) {
        self.path = path
        self.headers = headers
        self.credentialFile = credentialFile
        self.outputFile = outputFile
        self.json = json
        self.policiesDirectory = policiesDirectory
        self.stateDirectory = stateDirectory
        self.origins = origins
    }

    init(_ parsed: ParsedArguments, environment: [String: String]) throws(UsageError) {
        let path = parsed.positionals[0]
        guard path.hasPrefix("/") else {
            throw parsed.error(.invalidValue, "invalid PATH '\(path)': must start with '/'")
        }
        if path.unicodeScalars.contains(where: { $0.value <= 0x20 || $0.value == 0x7F }) {
            throw parsed.error(.invalidValue, "invalid PATH '\(path)': contains a space or control character")
        }
        var headers: [RequestHeader] = []
        for text in parsed.allValues("header") {
            switch RequestHeader.parse(text) {
            case .success(let header): headers.append(header)
            case .failure(let error): throw parsed.error(.invalidValue, "invalid --header '\(text)': \(error.reason)")
            }
        }
        self.init(
            path: path, headers: headers, credentialFile: parsed.value("credential-file"), outputFile: parsed.value("output"),
            json: parsed.flag("json"),
            policiesDirectory: CommandDefaults.policiesDirectory(parsed),
            stateDirectory: CommandDefaults.stateDirectory(parsed, environment: environment),
            origins: try OriginOverride.all(parsed))
    }
}
