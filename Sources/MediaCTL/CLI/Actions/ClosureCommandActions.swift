/// ``CommandActions`` built from closures, for wiring commands one at a time without a new type.
/// A `nil` closure keeps the default (`mediactl <command> is not available in this build`, exit 1).
public struct ClosureCommandActions: CommandActions {
    /// The shape of every action: typed options and the context in, exit status out.
    public typealias Action<Options> = @Sendable (Options, CommandContext) async -> ExitCode

    public var serve: Action<ServeOptions>?
    public var demo: Action<DemoOptions>?
    public var fetch: Action<FetchOptions>?
    public var inspect: Action<InspectOptions>?
    public var audit: Action<AuditOptions>?
    public var auditVerify: Action<AuditVerifyOptions>?
    public var auditPrune: Action<AuditPruneOptions>?
    public var policyCheck: Action<PolicyCheckOptions>?
    public var purge: Action<PurgeOptions>?
    public var reload: Action<ReloadOptions>?
    public var warm: Action<WarmOptions>?
    public var sign: Action<SignOptions>?

    /// Every action unset by default.
    public init(
        serve: Action<ServeOptions>? = nil, demo: Action<DemoOptions>? = nil, fetch: Action<FetchOptions>? = nil,
        inspect: Action<InspectOptions>? = nil, audit: Action<AuditOptions>? = nil,
        auditVerify: Action<AuditVerifyOptions>? = nil, policyCheck: Action<PolicyCheckOptions>? = nil,
        purge: Action<PurgeOptions>? = nil, auditPrune: Action<AuditPruneOptions>? = nil,
        reload: Action<ReloadOptions>? = nil,
        warm: Action<WarmOptions>? = nil, sign: Action<SignOptions>? = nil
    ) {
        self.sign = sign
        self.reload = reload
        self.serve = serve
        self.demo = demo
        self.fetch = fetch
        self.inspect = inspect
        self.audit = audit
        self.auditVerify = auditVerify
        self.policyCheck = policyCheck
        self.purge = purge
        self.auditPrune = auditPrune
        self.warm = warm
    }

    private static let fallback = UnavailableCommandActions()

    public func serve(_ options: ServeOptions, context: CommandContext) async -> ExitCode {
        guard let serve else { return await Self.fallback.serve(options, context: context) }
        return await serve(options, context)
    }
    public func demo(_ options: DemoOptions, context: CommandContext) async -> ExitCode {
        guard let demo else { return await Self.fallback.demo(options, context: context) }
        return await demo(options, context)
    }
    public func fetch(_ options: FetchOptions, context: CommandContext) async -> ExitCode {
        guard let fetch else { return await Self.fallback.fetch(options, context: context) }
        return await fetch(options, context)
    }
    public func inspect(_ options: InspectOptions, context: CommandContext) async -> ExitCode {
        guard let inspect else { return await Self.fallback.inspect(options, context: context) }
        return await inspect(options, context)
    }
    public func audit(_ options: AuditOptions, context: CommandContext) async -> ExitCode {
        guard let audit else { return await Self.fallback.audit(options, context: context) }
        return await audit(options, context)
    }
    public func auditVerify(_ options: AuditVerifyOptions, context: CommandContext) async -> ExitCode {
        guard let auditVerify else { return await Self.fallback.auditVerify(options, context: context) }
        return await auditVerify(options, context)
    }
    public func auditPrune(_ options: AuditPruneOptions, context: CommandContext) async -> ExitCode {
        guard let auditPrune else { return await Self.fallback.auditPrune(options, context: context) }
        return await auditPrune(options, context)
    }
    public func policyCheck(_ options: PolicyCheckOptions, context: CommandContext) async -> ExitCode {
        guard let policyCheck else { return await Self.fallback.policyCheck(options, context: context) }
        return await policyCheck(options, context)
    }
    public func purge(_ options: PurgeOptions, context: CommandContext) async -> ExitCode {
        guard let purge else { return await Self.fallback.purge(options, context: context) }
        return await purge(options, context)
    }
    public func sign(_ options: SignOptions, context: CommandContext) async -> ExitCode {
        guard let sign else { return await Self.fallback.sign(options, context: context) }
        return await sign(options, context)
    }
    public func reload(_ options: ReloadOptions, context: CommandContext) async -> ExitCode {
        guard let reload else { return await Self.fallback.reload(options, context: context) }
        return await reload(options, context)
    }

    public func warm(_ options: WarmOptions, context: CommandContext) async -> ExitCode {
        guard let warm else { return await Self.fallback.warm(options, context: context) }
        return await warm(options, context)
    }
}
