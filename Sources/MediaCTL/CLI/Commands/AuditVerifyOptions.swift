/// The options of `mediactl audit verify`.
public struct AuditVerifyOptions: MediaCommand {
    /// `--state-dir DIR`. Default: `$MEDIACTL_STATE_DIR`, else `./.mediactl`.
    public var stateDirectory: String

    public init(stateDirectory: String = CommandDefaults.stateDirectory) {
        self.stateDirectory = stateDirectory
    }

    public static let declaration = CommandDeclaration<Self>(
        path: ["audit", "verify"],
        summary: "Check the audit log's hash chain.",
        arguments: [.stateDirectory(\.stateDirectory)],
        notes: [CommandTree.exitCodes(ok: "chain intact", failure: "chain broken")],
        defaults: { AuditVerifyOptions() })

    /// Checks the hash chain (``AuditVerifyCommand``).
    public func run(in environment: CommandEnvironment, context: CommandContext) async -> ExitCode {
        AuditVerifyCommand.run(self, context: context)
    }
}
