/// The options of `mediactl reload`.
public struct ReloadOptions: MediaCommand {
    /// `--state-dir DIR`. Default: `$MEDIACTL_STATE_DIR`, else `./.mediactl`.
    public var stateDirectory: String

    public init(stateDirectory: String = CommandDefaults.stateDirectory) {
        self.stateDirectory = stateDirectory
    }

    public static let declaration = CommandDeclaration<Self>(
        path: ["reload"],
        summary: "Re-read the policies of the running service without a restart.",
        arguments: [.stateDirectory(\.stateDirectory)],
        notes: [
            "Asks the running 'mediactl serve' of the state directory (its serve.json) on its admin listener, as SIGHUP does; "
                + "an invalid policy set is refused, its problems printed as 'policy check' prints them, and the policies in force stay.",
            CommandTree.exitCodes(ok: "the new policies are in force", failure: "the service refused them (invalid policies) or failed the reload"),
        ],
        defaults: { ReloadOptions() })

    /// Asks the running service to reload (``ReloadCommand``).
    public func run(in environment: CommandEnvironment, context: CommandContext) async -> ExitCode {
        await ReloadCommand.run(self, context: context, client: PurgeClient(configuration: environment.purgeClient))
    }
}
