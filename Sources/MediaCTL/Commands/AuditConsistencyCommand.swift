import Foundation
import MediaAudit
import MediaCrypto

/// `mediactl audit consistency OLD NEW [--state-dir DIR]`: proves that the checkpoint in file NEW extends the one in
/// file OLD (both signed by the state directory's key, ``AuditCheckpointCommand``): prints the RFC 9162 consistency
/// proof between them from the log's records, one base64 hash a line, then `consistent: OLD_SIZE → NEW_SIZE` (exit 0),
/// or `not consistent: …` (exit 1) when the log no longer holds the records either checkpoint signed (a record
/// altered and the chain re-hashed after OLD was taken).
public struct AuditConsistencyCommand: MediaCommand {
    /// The earlier checkpoint's file.
    public var old: String = ""
    /// The later checkpoint's file.
    public var new: String = ""
    /// `--state-dir DIR`. Default: `$MEDIACTL_STATE_DIR`, else `./.mediactl`.
    public var stateDirectory: String = CommandDefaults.stateDirectory

    public static let declaration = CommandDeclaration<Self>(
        path: ["audit", "consistency"],
        summary: "Prove that a later audit checkpoint extends an earlier one.",
        arguments: [
            .positional("OLD", help: "File of the earlier checkpoint (audit checkpoint's output).", \.old),
            .positional("NEW", help: "File of the later checkpoint.", \.new),
            .stateDirectory(\.stateDirectory),
        ],
        notes: [CommandTree.exitCodes(ok: "NEW extends OLD", failure: "the log's records do not prove it")],
        defaults: { Self() })

    public func run(in environment: CommandEnvironment, context: CommandContext) async -> ExitCode {
        do throws(CommandError) {
            let verifier = NoteVerifier(try AuditTreeAccess.signer(stateDirectory: stateDirectory))
            let older = try Self.checkpoint(old, verifier: verifier)
            let newer = try Self.checkpoint(new, verifier: verifier)
            guard older.size <= newer.size else {
                throw CommandError(.invalidCheckpoint, "'\(old)' covers \(older.size) records, more than '\(new)' (\(newer.size))",
                                   exitCode: .unusableInput)
            }
            let tree = try AuditTreeAccess.tree(stateDirectory: stateDirectory)
            guard newer.size <= tree.size else {
                context.diagnose("not consistent: '\(new)' covers \(newer.size) records; the log has \(tree.size)")
                return .failure
            }
            let proof = older.size == newer.size ? [] : MerkleTree.consistencyProof(oldSize: older.size, tree.leaves[..<newer.size])
            for hash in proof { context.stdout.writeLine(Data(hash.bytes).base64EncodedString()) }
            guard MerkleTree.verifyConsistency(oldSize: older.size, oldRoot: older.root, newSize: newer.size,
                                               newRoot: newer.root, proof: proof) else {
                context.diagnose("not consistent: the log's records do not lead from '\(old)' (\(older.size) records) to '\(new)' (\(newer.size))")
                return .failure
            }
            context.stdout.writeLine("consistent: \(older.size) → \(newer.size)")
            return .success
        } catch {
            return context.fail(error)
        }
    }

    /// The checkpoint in `file`, opened with `verifier`.
    /// - Throws: ``CommandError``: `unreadable-file`; `invalid-checkpoint` (`'F': the note has no signature of …`).
    static func checkpoint(_ file: String, verifier: NoteVerifier) throws(CommandError) -> TreeCheckpoint {
        guard let data = FileManager.default.contents(atPath: file), let note = String(data: data, encoding: .utf8) else {
            throw CommandError(.unreadableFile, "cannot read '\(file)'", exitCode: .unusableInput)
        }
        do {
            return try TreeCheckpoint(text: verifier.open(note))
        } catch {
            throw CommandError(.invalidCheckpoint, "'\(file)': \(error.context)", exitCode: .unusableInput)
        }
    }
}
