import MediaAudit

/// `mediactl audit prune --keep-segments N [--state-dir DIR] [--policies DIR]`: audit log retention
/// (``AuditPruner``).
///
/// Removes all rotated segments of `<state>/audit` but the newest N, after verifying them and writing the
/// ``MediaAuditReports/AuditCheckpoint`` (where the chain continues, and the records of the objects still stored). Safe
/// while `mediactl serve` runs. Copy the segments elsewhere first to keep their records.
///
/// Output: `pruned 3 segments (seq 1-52431, 25165824 bytes); checkpoint at seq 52431, hash <hex>; 17 stored
/// objects carried (19 records)` (exit 0), `nothing to prune: 2 rotated segments, keeping 4` (exit 0), or, after a prune
/// interrupted before it removed its segments, `removed 2 segments an interrupted prune left (16751 bytes);
/// checkpoint at seq 52431 unchanged`.
/// Errors (stderr, `mediactl: `): `refusing to prune: <kind> at seq N (<file> line L): <detail>` (exit 1: the
/// segments to remove do not verify, and nothing is removed), or `refusing to prune: the segments to remove
/// hold N records the policies forbid (first: …)` or `refusing to prune: the segments to remove hold N variant
/// violations (first: …)` (exit 1, nothing removed); invalid policies (exit 2); no state directory, no audit log, an invalid
/// checkpoint, an I/O failure (exit 2). Waits for a running `audit`, `audit verify` or prune.
public enum AuditPruneCommand {
    public static func run(_ options: AuditPruneOptions, context: CommandContext) -> ExitCode {
        do throws(CommandError) {
            let directory = try AuditVerifyCommand.requireLog(stateDirectory: options.stateDirectory)
            let policies = try PolicyCheckCommand.load(
                options.policiesDirectory, context: context, failure: "cannot prune")
            let result: AuditPruner.Result
            do {
                result = try AuditPruner.prune(
                    directory: directory, keepSegments: options.keepSegments,
                    allowedStorage: AuditCommand.allowedStorage(policies))
            } catch let error as AuditError where error.code == .pruneRefused {
                throw CommandError(.auditPruneRefused, error.context, exitCode: .failure)
            } catch {
                throw CommandError(
                    .unreadableFile, "cannot prune the audit log in '\(directory)': \(error)", exitCode: .unusableInput)
            }
            context.stdout.writeLine(text(result, keeping: options.keepSegments, directory: directory))
            return .success
        } catch {
            return context.fail(error)
        }
    }

    static func text(_ result: AuditPruner.Result, keeping: Int, directory: String) -> String {
        if result.seqs == nil, result.segments > 0, let checkpoint = result.checkpoint {
            return "removed \(result.segments) segment\(result.segments == 1 ? "" : "s") an interrupted prune left "
                + "(\(result.bytes) bytes); checkpoint at seq \(checkpoint.seq) unchanged"
        }
        guard let seqs = result.seqs, let checkpoint = result.checkpoint else {
            let rotated = AuditReader.files(directory: directory).filter { !$0.hasSuffix("/audit.jsonl") }.count
            return "nothing to prune: \(rotated) rotated segment\(rotated == 1 ? "" : "s"), keeping \(keeping)"
        }
        let plural = result.segments == 1 ? "" : "s"
        let removed = "pruned \(result.segments) segment\(plural) (seq \(seqs.lowerBound)-\(seqs.upperBound), \(result.bytes) bytes)"
        let kept = "checkpoint at seq \(checkpoint.seq), hash \(checkpoint.hash.hex)"
        return removed + "; " + kept + "; \(result.objects) stored objects carried (\(checkpoint.objectCount) records)"
    }
}
