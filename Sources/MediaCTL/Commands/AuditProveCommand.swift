import MediaAudit

/// `mediactl audit prove --index N [--size M] [--state-dir DIR]`: prints the proof (C2SP tlog-proof) that the record
/// at leaf index N (its `seq` − 1) is in the audit log: its RFC 9162 inclusion proof in the tree of the first M records
/// (default: all), and the signed checkpoint of that tree.
public struct AuditProveCommand: MediaCommand {
    /// `--index N` (required): the record's leaf index, `seq` − 1.
    public var index: Int = 0
    /// `--size M`: the tree the proof is for. Default: all records.
    public var size: Int?
    /// `--state-dir DIR`. Default: `$MEDIACTL_STATE_DIR`, else `./.mediactl`.
    public var stateDirectory: String = CommandDefaults.stateDirectory

    public static let declaration = CommandDeclaration<Self>(
        path: ["audit", "prove"],
        summary: "Print the inclusion proof of one audit record, with a signed checkpoint.",
        arguments: [
            .wholeNumber("index", in: 0...Int.max, required: true, help: "The record's leaf index: its seq - 1. Required.", \.index),
            .wholeNumber("size", in: 1...Int.max, help: "Records of the tree the proof is for. Default: all.", \.size),
            .stateDirectory(\.stateDirectory),
        ],
        notes: ["The leaf is SHA-256(0x00 || the record's line as written); docs/verify_audit.py checks the proof offline."],
        defaults: { Self() })

    public func run(in environment: CommandEnvironment, context: CommandContext) async -> ExitCode {
        do throws(CommandError) {
            let (signer, tree, size) = try AuditTreeAccess.open(stateDirectory: stateDirectory, size: size)
            guard index < size else {
                throw CommandError(.outsideLog, "--index \(index): the tree has \(size) records (allowed: 0…\(size - 1))",
                                   exitCode: .unusableInput)
            }
            let proof = MerkleTree.inclusionProof(index: index, tree.leaves[..<size])
            let checkpoint = try AuditTreeAccess.signedCheckpoint(tree, size: size, signer: signer)
            context.stdout.write(TlogProof(index: index, proof: proof, checkpoint: checkpoint).text)
            return .success
        } catch {
            return context.fail(error)
        }
    }
}
