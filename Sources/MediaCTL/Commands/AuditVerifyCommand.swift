import MediaAudit

/// `mediactl audit verify [--state-dir DIR]`: re-verifies the audit log's hash chain
/// (``AuditVerifier``) across rotated segments.
///
/// Prints ``MediaAudit/AuditVerification/text`` to stdout: `ok: N records, last hash <hex>` (exit 0)
/// or `failed: <kind> at seq N (<file> line L): <detail>; M records verified` (exit 1); with an intact chain whose tree
/// files disagree with it, `failed: <problem>; the chain of N records is intact` (exit 1).
/// Exit 2 when the state directory or its audit log is missing or unreadable.
public struct AuditVerifyCommand: MediaCommand {
    /// `--state-dir DIR`. Default: `$MEDIACTL_STATE_DIR`, else `./.mediactl`.
    public var stateDirectory: String = CommandDefaults.stateDirectory

    public static let declaration = CommandDeclaration<Self>(
        path: ["audit", "verify"],
        summary: "Check the audit log's hash chain.",
        arguments: [.stateDirectory(\.stateDirectory)],
        notes: [CommandTree.exitCodes(ok: "chain intact", failure: "chain broken")],
        defaults: { Self() })

    public func run(in environment: CommandEnvironment, context: CommandContext) async -> ExitCode {
        do {
            let (verification, treeProblem) = try Self.verify(stateDirectory: stateDirectory)
            if let treeProblem {
                context.stdout.write("failed: \(treeProblem); the chain of \(verification.recordCount) records is intact\n")
                return .failure
            }
            context.stdout.write(verification.text)
            return verification.isIntact ? .success : .failure
        } catch {
            return context.fail(error)
        }
    }

    /// Checks the state directory and that `<state>/audit` holds log files, then verifies the chain and, in the same
    /// pass, the tree files beside it (``MediaAudit/AuditTreeCheck``; its checkpoint with the state directory's key,
    /// when it has one).
    /// - Returns: the chain's verification, and the tree's first problem when the chain is intact.
    /// - Throws: ``CommandError`` (exit 2): `no-state-directory`; `no-audit-log`
    ///   (`no audit log in 'X/audit'`); `unreadable-file` (`cannot read the audit log in 'X/audit': …`).
    static func verify(stateDirectory: String) throws(CommandError) -> (AuditVerification, treeProblem: String?) {
        let directory = try requireLog(stateDirectory: stateDirectory)
        let verifier = (try? AuditTreeAccess.signer(stateDirectory: stateDirectory)).map(NoteVerifier.init)
        do {
            var tree = try AuditTreeCheck(directory: directory, verifier: verifier)
            let verification = try AuditVerifier.stream(directory: directory, stopWhenSettled: true) { tree.add($0) }
                .verification
            return (verification, verification.isIntact ? tree.finish() : nil)
        } catch {
            throw unreadableLog(directory, error)
        }
    }

    /// Checks the state directory and that `<state>/audit` holds log files; returns the audit folder.
    /// - Throws: ``CommandError`` (exit 2): `no-state-directory`; `no-audit-log`.
    static func requireLog(stateDirectory: String) throws(CommandError) -> String {
        try StateDirectoryCheck.requireExisting(stateDirectory)
        let directory = stateDirectory + "/audit"
        guard !AuditReader.files(directory: directory).isEmpty else {
            throw CommandError(.noAuditLog, "no audit log in '\(directory)'", exitCode: .unusableInput)
        }
        return directory
    }

    static func unreadableLog(_ directory: String, _ error: any Error) -> CommandError {
        CommandError(
            .unreadableFile, "cannot read the audit log in '\(directory)': \(error)", exitCode: .unusableInput)
    }
}
