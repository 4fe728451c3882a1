/// The defaults shared by the commands (docs/cli.md).
public enum CommandDefaults {
    /// Default of `--policies`: `./Policies`, relative to the working directory.
    public static let policiesDirectory = "./Policies"
    /// Default of `--state-dir` when ``stateDirectoryVariable`` is unset or empty: `./.mediactl`.
    public static let stateDirectory = "./.mediactl"
    /// The environment variable that replaces the default state directory: `MEDIACTL_STATE_DIR`.
    public static let stateDirectoryVariable = "MEDIACTL_STATE_DIR"

    /// How help states the state directory's default: `Default: $MEDIACTL_STATE_DIR when set and non-empty, else
    /// ./.mediactl.`
    public static let stateDirectoryHelp =
        "Default: $\(stateDirectoryVariable) when set and non-empty, else \(stateDirectory)."

    /// The state directory when `--state-dir` is not given: a non-empty `MEDIACTL_STATE_DIR`, else `./.mediactl`.
    static func stateDirectory(environment: [String: String]) -> String {
        if let fromEnvironment = environment[stateDirectoryVariable], !fromEnvironment.isEmpty {
            return fromEnvironment
        }
        return stateDirectory
    }
}
