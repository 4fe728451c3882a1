import MediaService

/// The ``CommandActions`` of the `mediactl` executable.
///
/// This file implements `policy check`, `audit`, `audit verify`, `purge`, `reload` and `warm`; `serve`, `demo`,
/// `fetch` and `inspect` are added in extensions of this type in their own files (until then they
/// keep the protocol default: `<command> is not available in this build`, exit 1).
public struct ProductionCommandActions: CommandActions {
    /// How `mediactl purge` talks to the running service.
    public var purgeClient: PurgeClient.Configuration

    /// Production defaults for every command.
    public init(purgeClient: PurgeClient.Configuration = PurgeClient.Configuration()) {
        self.purgeClient = purgeClient
    }

    public func policyCheck(_ options: PolicyCheckOptions, context: CommandContext) async -> ExitCode {
        PolicyCheckCommand.run(options, context: context)
    }

    public func audit(_ options: AuditOptions, context: CommandContext) async -> ExitCode {
        AuditCommand.run(options, context: context)
    }

    public func auditVerify(_ options: AuditVerifyOptions, context: CommandContext) async -> ExitCode {
        AuditVerifyCommand.run(options, context: context)
    }

    public func auditPrune(_ options: AuditPruneOptions, context: CommandContext) async -> ExitCode {
        AuditPruneCommand.run(options, context: context)
    }

    public func purge(_ options: PurgeOptions, context: CommandContext) async -> ExitCode {
        await PurgeCommand.run(options, context: context, client: PurgeClient(configuration: purgeClient))
    }

    public func reload(_ options: ReloadOptions, context: CommandContext) async -> ExitCode {
        await ReloadCommand.run(options, context: context, client: PurgeClient(configuration: purgeClient))
    }

    public func sign(_ options: SignOptions, context: CommandContext) async -> ExitCode {
        SignCommand.run(options, context: context)
    }

    public func warm(_ options: WarmOptions, context: CommandContext) async -> ExitCode {
        await WarmCommand.run(options, context: context, environment: .init(fetcher: DefaultOriginFetcher.make()))
    }
}
