/// The error codes of `serve`, `demo`, `fetch` and `inspect` (see ``CommandError``).
extension CommandError.Code {
    /// The policies could not be loaded or an `--origin` override is wrong (exit 2).
    public static let invalidPolicy = CommandError.Code("invalid-policy")
    /// The state directory cannot be opened: not a directory, or its audit log is locked (exit 2).
    public static let stateDirectory = CommandError.Code("state-directory")
    /// The listen address cannot be bound or resolved (exit 2).
    public static let listenFailed = CommandError.Code("listen-failed")
    /// The admin token of `serve.json` could not be drawn from the CSPRNG (exit 1).
    public static let adminToken = CommandError.Code("admin-token")
    /// A demo request failed at the transport level (exit 1).
    public static let demoFailed = CommandError.Code("demo-failed")
    /// `serve`'s environment sets ``CrashPoint/variable`` to a value it does not name a crash point with (exit 2).
    public static let invalidEnvironment = CommandError.Code("invalid-environment")
    /// `mediactl inspect` could not reach the origin (exit 1).
    public static let inspectFailed = CommandError.Code("inspect-failed")
}
