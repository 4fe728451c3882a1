/// The options of `mediactl audit`.
public struct AuditOptions: Sendable, Hashable {
    /// `--state-dir DIR`. Default: `$MEDIACTL_STATE_DIR`, else `./.mediactl`.
    public var stateDirectory: String
    /// `--policies DIR`, to judge what was persisted. Default: `./Policies`.
    public var policiesDirectory: String
    /// `--json`: one JSON document instead of text. Default: `false`.
    public var json: Bool

    public init(
        stateDirectory: String = CommandDefaults.stateDirectory,
        policiesDirectory: String = CommandDefaults.policiesDirectory, json: Bool = false
    ) {
        self.stateDirectory = stateDirectory
        self.policiesDirectory = policiesDirectory
        self.json = json
    }

    init(_ parsed: ParsedArguments, environment: [String: String]) {
        self.init(
            stateDirectory: CommandDefaults.stateDirectory(parsed, environment: environment),
            policiesDirectory: CommandDefaults.policiesDirectory(parsed), json: parsed.flag("json"))
    }
}
