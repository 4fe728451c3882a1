import MediaAudit

/// `mediactl audit public-key [--state-dir DIR]`: prints the verifier key of the audit log's signing key
/// (`<origin>+<key ID>+<base64 key>`, C2SP signed-note), which checks its checkpoints and proofs.
public struct AuditPublicKeyCommand: MediaCommand {
    /// `--state-dir DIR`. Default: `$MEDIACTL_STATE_DIR`, else `./.mediactl`.
    public var stateDirectory: String = CommandDefaults.stateDirectory

    public static let declaration = CommandDeclaration<Self>(
        path: ["audit", "public-key"],
        summary: "Print the verifier key of the audit log's checkpoints.",
        arguments: [.stateDirectory(\.stateDirectory)],
        notes: ["The key is made when the service first starts on the state directory (keys/audit-signing.key, mode 0600)."],
        defaults: { Self() })

    public func run(in environment: CommandEnvironment, context: CommandContext) async -> ExitCode {
        do {
            context.stdout.writeLine(try AuditTreeAccess.signer(stateDirectory: stateDirectory).verifierKey)
            return .success
        } catch {
            return context.fail(error)
        }
    }
}
