/// What the commands do once their command line is parsed: one async method per command, each
/// returning the exit status.
///
/// Every method has a default that prints `mediactl: <command> is not available in this build`
/// to stderr and returns ``ExitCode/failure``; an implementation overrides the commands it
/// provides. Methods write results to `context.stdout` and diagnostics to `context.stderr`.
public protocol CommandActions: Sendable {
    /// `mediactl serve`: runs until interrupted. Returns 0 after a clean shutdown.
    func serve(_ options: ServeOptions, context: CommandContext) async -> ExitCode
    /// `mediactl demo`.
    func demo(_ options: DemoOptions, context: CommandContext) async -> ExitCode
    /// `mediactl fetch PATH`.
    func fetch(_ options: FetchOptions, context: CommandContext) async -> ExitCode
    /// `mediactl inspect URL`.
    func inspect(_ options: InspectOptions, context: CommandContext) async -> ExitCode
    /// `mediactl audit`: 1 when the report finds violations.
    func audit(_ options: AuditOptions, context: CommandContext) async -> ExitCode
    /// `mediactl audit verify`: 1 when the hash chain is broken.
    func auditVerify(_ options: AuditVerifyOptions, context: CommandContext) async -> ExitCode
    /// `mediactl audit prune`: 1 when the segments to remove do not verify.
    func auditPrune(_ options: AuditPruneOptions, context: CommandContext) async -> ExitCode
    /// `mediactl policy check`: 2 when a policy file is invalid or unreadable.
    func policyCheck(_ options: PolicyCheckOptions, context: CommandContext) async -> ExitCode
    /// `mediactl purge`.
    func purge(_ options: PurgeOptions, context: CommandContext) async -> ExitCode
    /// `mediactl reload`: 1 when the running service refuses the new policies.
    func reload(_ options: ReloadOptions, context: CommandContext) async -> ExitCode
    /// `mediactl warm`: 1 when a target was refused or failed.
    func warm(_ options: WarmOptions, context: CommandContext) async -> ExitCode
    /// `mediactl sign`: 2 when the keys file, the key id or the target is unusable.
    func sign(_ options: SignOptions, context: CommandContext) async -> ExitCode
}

extension CommandActions {
    public func serve(_ options: ServeOptions, context: CommandContext) async -> ExitCode {
        Self.unavailable("serve", context)
    }
    public func demo(_ options: DemoOptions, context: CommandContext) async -> ExitCode {
        Self.unavailable("demo", context)
    }
    public func fetch(_ options: FetchOptions, context: CommandContext) async -> ExitCode {
        Self.unavailable("fetch", context)
    }
    public func inspect(_ options: InspectOptions, context: CommandContext) async -> ExitCode {
        Self.unavailable("inspect", context)
    }
    public func audit(_ options: AuditOptions, context: CommandContext) async -> ExitCode {
        Self.unavailable("audit", context)
    }
    public func auditVerify(_ options: AuditVerifyOptions, context: CommandContext) async -> ExitCode {
        Self.unavailable("audit verify", context)
    }
    public func auditPrune(_ options: AuditPruneOptions, context: CommandContext) async -> ExitCode {
        Self.unavailable("audit prune", context)
    }
    public func policyCheck(_ options: PolicyCheckOptions, context: CommandContext) async -> ExitCode {
        Self.unavailable("policy check", context)
    }
    public func purge(_ options: PurgeOptions, context: CommandContext) async -> ExitCode {
        Self.unavailable("purge", context)
    }
    public func reload(_ options: ReloadOptions, context: CommandContext) async -> ExitCode {
        Self.unavailable("reload", context)
    }

    public func warm(_ options: WarmOptions, context: CommandContext) async -> ExitCode {
        Self.unavailable("warm", context)
    }

    public func sign(_ options: SignOptions, context: CommandContext) async -> ExitCode {
        Self.unavailable("sign", context)
    }

    private static func unavailable(_ command: String, _ context: CommandContext) -> ExitCode {
        context.diagnose("\(command) is not available in this build")
        return .failure
    }
}

/// ``CommandActions`` with every default: each command reports that it is not available.
public struct UnavailableCommandActions: CommandActions {
    public init() {}
}
