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
public struct AuditPruneCommand: MediaCommand {
    /// `--keep-segments N` (required): rotated segments to keep, 1 to ``maxKeepSegments``.
    public var keepSegments: Int = 1
    /// `--state-dir DIR`. Default: `$MEDIACTL_STATE_DIR`, else `./.mediactl`.
    public var stateDirectory: String = CommandDefaults.stateDirectory
    /// `--policies DIR`: the policies the removed records are judged by. Default: `./Policies`.
    public var policiesDirectory: String = CommandDefaults.policiesDirectory

    /// The largest accepted `--keep-segments` value.
    public static let maxKeepSegments = 1_000_000

    public static let declaration = CommandDeclaration<Self>(
        path: ["audit", "prune"],
        summary: "Remove the oldest rotated audit segments, keeping a verifiable checkpoint.",
        arguments: [
            .wholeNumber(
                "keep-segments", in: 1...maxKeepSegments, required: true,
                help: "Rotated segments to keep (the newest), 1 to 1000000. Required.", \.keepSegments),
            .stateDirectory(\.stateDirectory),
            .policies(
                help: "Policies the removed records are judged by; a record they forbid is never pruned.",
                \.policiesDirectory),
        ],
        notes: [
            "Verifies the segments first and writes the checkpoint (audit/checkpoint.json: where the chain continues; "
                + "audit/checkpoint-NNNNNN.jsonl: the records of the objects still stored); audit and audit verify continue from it. Safe while serve runs; waits for a running audit. "
                + "Copy the segments elsewhere first to keep their records.",
            CommandTree.exitCodes(ok: "pruned (or nothing to prune)", failure: "refused: the segments to remove do not verify or hold records the policies forbid"),
        ],
        defaults: { Self() })

    public func run(in environment: CommandEnvironment, context: CommandContext) async -> ExitCode {
        do throws(CommandError) {
            let directory = try AuditVerifyCommand.requireLog(stateDirectory: stateDirectory)
            let policies = try PolicyCheckCommand.load(
                policiesDirectory, context: context, failure: "cannot prune")
            let result: AuditPruner.Result
            do {
                result = try AuditPruner.prune(
                    directory: directory, keepSegments: keepSegments,
                    allowedStorage: AuditCommand.allowedStorage(policies))
            } catch let error as AuditError where error.code == .pruneRefused {
                throw CommandError(.auditPruneRefused, error.context, exitCode: .failure)
            } catch {
                throw CommandError(
                    .unreadableFile, "cannot prune the audit log in '\(directory)': \(error)", exitCode: .unusableInput)
            }
            context.stdout.writeLine(Self.text(result, keeping: keepSegments, directory: directory))
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
