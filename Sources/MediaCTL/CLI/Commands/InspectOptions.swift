/// The options of `mediactl inspect URL`.
public struct InspectOptions: MediaCommand {
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

    public static let declaration = CommandDeclaration<Self>(
        path: ["inspect"],
        summary:
            "Show an origin URL's caching headers, parsed freshness, matching route and tier, and what it would store.",
        arguments: [
            .positional(
                "URL",
                help: "An http:// or https:// origin URL, or a signed URL of the service (its signature is checked, then its origin URL inspected).",
                \.url, parse: { OriginURL.isValid($0) ? .success($0) : .failure("expected http:// or https:// with a host") }),
            .text(
                "credential-file", valueName: "FILE",
                help: "Send 'Authorization: Bearer <token>' with the token read from FILE (never from the command line).",
                \.credentialFile),
            .policies(\.policiesDirectory),
            .origins(
                help: "Replace the origin base URL of route ROUTE, as 'serve --origin' does. Repeatable, once per route.",
                \.origins),
            .stateDirectory(
                help: "For a signed URL: the state directory whose subject key gives its partition. Default: $MEDIACTL_STATE_DIR when set and non-empty, else ./.mediactl.",
                \.stateDirectory),
        ],
        notes: [CommandTree.exitCodes(ok: "inspected", failure: "the origin could not be reached")],
        defaults: { InspectOptions(url: "") })

    /// Asks the origin and explains what the service would do with its answer (``InspectCommand``).
    public func run(in environment: CommandEnvironment, context: CommandContext) async -> ExitCode {
        await InspectCommand(options: self, fetcher: environment.originFetcher, clock: environment.clocks.now)
            .run(context: context)
    }
}
