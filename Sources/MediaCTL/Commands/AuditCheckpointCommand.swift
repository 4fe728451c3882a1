import MediaAudit

/// `mediactl audit checkpoint [--size N] [--state-dir DIR]`: prints a signed checkpoint (C2SP tlog-checkpoint) of the
/// audit log's Merkle tree over its first N records (default: all), signed with the state directory's key.
public struct AuditCheckpointCommand: MediaCommand {
    /// `--size N`: the records the checkpoint covers. Default: all.
    public var size: Int?
    /// `--state-dir DIR`. Default: `$MEDIACTL_STATE_DIR`, else `./.mediactl`.
    public var stateDirectory: String = CommandDefaults.stateDirectory

    public static let declaration = CommandDeclaration<Self>(
        path: ["audit", "checkpoint"],
        summary: "Print a signed checkpoint of the audit log's Merkle tree.",
        arguments: [
            .wholeNumber("size", in: 1...Int.max, help: "Records the checkpoint covers (the first N). Default: all.", \.size),
            .stateDirectory(\.stateDirectory),
        ],
        notes: ["Keep it: audit consistency proves that a later checkpoint extends it. Check it with the key audit public-key prints."],
        defaults: { Self() })

    public func run(in environment: CommandEnvironment, context: CommandContext) async -> ExitCode {
        do throws(CommandError) {
            let (signer, tree, size) = try AuditTreeAccess.open(stateDirectory: stateDirectory, size: size)
            context.stdout.write(try AuditTreeAccess.signedCheckpoint(tree, size: size, signer: signer))
            return .success
        } catch {
            return context.fail(error)
        }
    }
}
