import MediaAudit

/// `mediactl audit export [--since INDEX] [--format jsonl|syslog] [--state-dir DIR]`: streams the audit log's records
/// from leaf index INDEX (`seq` − 1, inclusive) to stdout, one line each with its index (``MediaAudit/AuditExport``),
/// for a collector that resumes after the last index it holds and checks what it got against a checkpoint.
public struct AuditExportCommand: MediaCommand {
    /// `--since INDEX`: the first leaf index written. Default: 0 (every record the log still holds).
    public var since: Int = 0
    /// `--format jsonl|syslog`. Default: `jsonl`.
    public var format: AuditExport.Format = .jsonl
    /// `--state-dir DIR`. Default: `$MEDIACTL_STATE_DIR`, else `./.mediactl`.
    public var stateDirectory: String = CommandDefaults.stateDirectory

    public static let declaration = CommandDeclaration<Self>(
        path: ["audit", "export"],
        summary: "Stream the audit log's records with their leaf indices, as JSON Lines or RFC 5424 syslog.",
        arguments: [
            .wholeNumber("since", valueName: "INDEX", in: 0...Int.max, help: "The first leaf index written (seq - 1).", \.since),
            .parsed(
                "format", valueName: "jsonl|syslog", help: "JSON Lines with the record's line, or RFC 5424 syslog lines.",
                \.format, showing: \.rawValue, parse: { text in
                    AuditExport.Format(rawValue: text).map { .success($0) } ?? .failure("expected jsonl or syslog")
                }),
            .stateDirectory(\.stateDirectory),
        ],
        notes: ["A torn last line is not written. Records a prune removed are not in the log any more; their indices are skipped."],
        defaults: { Self() })

    public func run(in environment: CommandEnvironment, context: CommandContext) async -> ExitCode {
        do throws(CommandError) {
            let directory = try AuditVerifyCommand.requireLog(stateDirectory: stateDirectory)
            let (since, format, output) = (since, format, context.stdout)
            do {
                try AuditReader.forEachRecord(directory: directory) { line, record in
                    guard record.seq - 1 >= since else { return }
                    output.writeLine(AuditExport.line(format, index: record.seq - 1, line: line.text, time: record.time))
                }
            } catch {
                throw AuditVerifyCommand.unreadableLog(directory, error)
            }
            return .success
        } catch {
            return context.fail(error)
        }
    }
}
