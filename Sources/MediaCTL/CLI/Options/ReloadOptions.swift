/// The options of `mediactl reload`.
public struct ReloadOptions: Sendable, Hashable {
    /// `--state-dir DIR`. Default: `$MEDIACTL_STATE_DIR`, else `./.mediactl`.
    public var stateDirectory: String

    public init(stateDirectory: String = CommandDefaults.stateDirectory) {
        self.stateDirectory = stateDirectory
    }

    init(_ parsed: ParsedArguments, environment: [String: String]) {
        self.init(stateDirectory: CommandDefaults.stateDirectory(parsed, environment: environment))
    }
}
