/// A command line understood: what ``MediaCTLMain`` will do with it.
public enum ParsedCommand: Sendable, Hashable {
    /// Print this command's help to stdout and exit 0 (`--help`, `-h`, `help …`, or no arguments).
    case help(CommandSpec)
    /// Print `mediactl 0.1.0` and exit 0.
    case version
    case serve(ServeOptions)
    case demo(DemoOptions)
    case fetch(FetchOptions)
    case inspect(InspectOptions)
    case audit(AuditOptions)
    case auditVerify(AuditVerifyOptions)
    case policyCheck(PolicyCheckOptions)
    case purge(PurgeOptions)
}
