import MediaAudit

/// `mediactl audit verify [--state-dir DIR]`: re-verifies the audit log's hash chain
/// (``AuditVerifier``) across rotated segments.
///
/// Prints ``MediaAudit/AuditVerification/text`` to stdout: `ok: N records, last hash <hex>` (exit 0)
/// or `failed: <kind> at seq N (<file> line L): <detail>; M records verified` (exit 1).
/// Exit 2 when the state directory or its audit log is missing or unreadable.
public enum AuditVerifyCommand {
    public static func run(_ options: AuditVerifyOptions, context: CommandContext) -> ExitCode {
        do {
            let verification = try verify(stateDirectory: options.stateDirectory)
            context.stdout.write(verification.text)
            return verification.isIntact ? .success : .failure
        } catch {
            return context.fail(error)
        }
    }

    /// Checks the state directory and that `<state>/audit` holds log files, then verifies the chain.
    /// - Throws: ``CommandError`` (exit 2): `no-state-directory`; `no-audit-log`
    ///   (`no audit log in 'X/audit'`); `unreadable-file` (`cannot read the audit log in 'X/audit': …`).
    static func verify(stateDirectory: String) throws(CommandError) -> AuditVerification {
        let directory = try requireLog(stateDirectory: stateDirectory)
        do {
            return try AuditVerifier.verify(directory: directory)
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
