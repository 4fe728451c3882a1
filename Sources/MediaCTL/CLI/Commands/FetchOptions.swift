/// The options of `mediactl fetch PATH`.
public struct FetchOptions: MediaCommand {
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

    public static let declaration = CommandDeclaration<Self>(
        path: ["fetch"],
        summary: "Send one request through the pipeline and show the response and the storage decision.",
        arguments: [
            .positional(
                "PATH", help: "Request target starting with '/', such as /catalog/coffee.jpg.", \.path,
                parse: RequestTarget.parse),
            .repeated(
                "header", valueName: "'Name: value'",
                help: "Add a request header field, such as 'Accept: image/webp'. Repeatable.", \.headers,
                parse: RequestHeader.parse),
            .text(
                "credential-file", valueName: "FILE",
                help: "Send 'Authorization: Bearer <token>' with the token read from FILE (never from the command line).",
                \.credentialFile),
            .text("output", valueName: "FILE", help: "Write the response body to FILE.", \.outputFile),
            .json(\.json),
            .policies(\.policiesDirectory),
            .stateDirectory(\.stateDirectory),
            .origins(
                help: "Replace the origin base URL of route ROUTE, as 'serve --origin' does. Repeatable, once per route.",
                \.origins),
        ],
        notes: [CommandTree.exitCodes(ok: "a 2xx or 304 answer", failure: "any other answer")],
        defaults: { FetchOptions(path: "/") })

    /// Sends the request through a service on `--state-dir` (``FetchCommand``).
    public func run(in environment: CommandEnvironment, context: CommandContext) async -> ExitCode {
        let clock = environment.clock
        return await FetchCommand(options: self, fetcher: environment.originFetcher, service: { configuration in
            if let clock { configuration.clock = clock.now }
        }).run(context: context)
    }
}
