/// The defaults shared by the commands (docs/cli.md).
public enum CommandDefaults {
    /// Default of `--policies`: `./Policies`, relative to the working directory.
    public static let policiesDirectory = "./Policies"
    /// Default of `--state-dir` when ``stateDirectoryVariable`` is unset or empty: `./.mediactl`.
    public static let stateDirectory = "./.mediactl"
    /// The environment variable that replaces the default state directory: `MEDIACTL_STATE_DIR`.
    public static let stateDirectoryVariable = "MEDIACTL_STATE_DIR"

    /// The state directory when `--state-dir` is not given: a non-empty `MEDIACTL_STATE_DIR`, else `./.mediactl`.
    static func stateDirectory(environment: [String: String]) -> String {
        if let fromEnvironment = environment[stateDirectoryVariable], !fromEnvironment.isEmpty {
            return fromEnvironment
        }
        return stateDirectory
    }
}
