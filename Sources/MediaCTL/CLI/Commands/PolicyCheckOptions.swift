/// The options of `mediactl policy check`.
public struct PolicyCheckOptions: MediaCommand {
    /// `--policies DIR`. Default: `./Policies`.
    public var policiesDirectory: String

    public init(policiesDirectory: String = CommandDefaults.policiesDirectory) {
        self.policiesDirectory = policiesDirectory
    }

    public static let declaration = CommandDeclaration<Self>(
        path: ["policy", "check"],
        summary: "Validate the policy files.",
        arguments: [.policies(\.policiesDirectory)],
        notes: [CommandTree.exitCodes(ok: "valid", failure: nil)],
        defaults: { PolicyCheckOptions() })

    /// Validates the policy files (``PolicyCheckCommand``).
    public func run(in environment: CommandEnvironment, context: CommandContext) async -> ExitCode {
        PolicyCheckCommand.run(self, context: context)
    }
}
