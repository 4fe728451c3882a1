/// The defaults shared by the commands (docs/cli.md).
public enum CommandDefaults {
    /// Default of `--policies`: `./Policies`, relative to the working directory.
    public static let policiesDirectory = "./Policies"
    /// Default of `--state-dir` when ``stateDirectoryVariable`` is unset or empty: `./.mediactl`.
    public static let stateDirectory = "./.mediactl"
    /// The environment variable that replaces the default state directory: `MEDIACTL_STATE_DIR`.
    public static let stateDirectoryVariable = "MEDIACTL_STATE_DIR"

    /// The state directory: `--state-dir` when given, else a non-empty `MEDIACTL_STATE_DIR`,
    /// else `./.mediactl`.
    static func stateDirectory(_ parsed: ParsedArguments, environment: [String: String]) -> String {
        if let explicit = parsed.value("state-dir") { return explicit }
        if let fromEnvironment = environment[stateDirectoryVariable], !fromEnvironment.isEmpty {
            return fromEnvironment
        }
        return stateDirectory
    }

    /// The policy directory: `--policies` when given, else `./Policies`.
    static func policiesDirectory(_ parsed: ParsedArguments) -> String {
        parsed.value("policies") ?? policiesDirectory
    }
}
