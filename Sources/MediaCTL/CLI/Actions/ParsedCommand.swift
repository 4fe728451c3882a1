/// A command line understood: what ``MediaCTLMain`` will do with it.
public enum ParsedCommand: Sendable, Hashable {
    /// Print this command's help to stdout and exit 0 (`--help`, `-h`, `help …`, or no arguments).
    case help(CommandSpec)
    /// Print `mediactl 0.1.0` and exit 0.
    case version
    /// `mediactl serve`, dispatched to ``CommandActions``.
    case serve(ServeOptions)
    /// `mediactl demo`, dispatched to ``CommandActions``.
    case demo(DemoOptions)
    /// `mediactl fetch PATH`, dispatched to ``CommandActions``.
    case fetch(FetchOptions)
    /// `mediactl inspect URL`, dispatched to ``CommandActions``.
    case inspect(InspectOptions)
    /// `mediactl audit`, dispatched to ``CommandActions``.
    case audit(AuditOptions)
    /// `mediactl audit verify`, dispatched to ``CommandActions``.
    case auditVerify(AuditVerifyOptions)
    /// `mediactl audit prune`.
    case auditPrune(AuditPruneOptions)
    /// `mediactl policy check`, dispatched to ``CommandActions``.
    case policyCheck(PolicyCheckOptions)
    /// `mediactl purge`, dispatched to ``CommandActions``.
    case purge(PurgeOptions)
    /// `mediactl reload`, dispatched to ``CommandActions``.
    case reload(ReloadOptions)
    /// `mediactl sign`.
    case sign(SignOptions)
    /// `mediactl warm [FILE|-]`, dispatched to ``CommandActions``.
    case warm(WarmOptions)
}
