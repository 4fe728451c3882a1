/// The options of `mediactl audit prune`.
public struct AuditPruneOptions: MediaCommand {
    /// `--keep-segments N` (required): rotated segments to keep, 1 to ``maxKeepSegments``.
    public var keepSegments: Int
    /// `--state-dir DIR`. Default: `$MEDIACTL_STATE_DIR`, else `./.mediactl`.
    public var stateDirectory: String
    /// `--policies DIR`: the policies the removed records are judged by. Default: `./Policies`.
    public var policiesDirectory: String

    /// The largest accepted `--keep-segments` value.
    public static let maxKeepSegments = 1_000_000

    public init(
        keepSegments: Int, stateDirectory: String = CommandDefaults.stateDirectory,
        policiesDirectory: String = CommandDefaults.policiesDirectory
    ) {
        self.keepSegments = keepSegments
        self.stateDirectory = stateDirectory
        self.policiesDirectory = policiesDirectory
    }

    public static let declaration = CommandDeclaration<Self>(
        path: ["audit", "prune"],
        summary: "Remove the oldest rotated audit segments, keeping a verifiable checkpoint.",
        arguments: [
            .wholeNumber(
                "keep-segments", in: 1...maxKeepSegments, required: true,
                help: "Rotated segments to keep (the newest), 1 to 1000000. Required.", \.keepSegments),
            .stateDirectory(\.stateDirectory),
            .policies(
                help: "Policies the removed records are judged by; a record they forbid is never pruned. Default: ./Policies.",
                \.policiesDirectory),
        ],
        notes: [
            "Verifies the segments first and writes the checkpoint (audit/checkpoint.json: where the chain continues; "
                + "audit/checkpoint-NNNNNN.jsonl: the records of the objects still stored); audit and audit verify continue from it. Safe while serve runs; waits for a running audit. "
                + "Copy the segments elsewhere first to keep their records.",
            CommandTree.exitCodes(ok: "pruned (or nothing to prune)", failure: "refused: the segments to remove do not verify or hold records the policies forbid"),
        ],
        defaults: { AuditPruneOptions(keepSegments: 1) })

    /// Prunes the oldest segments (``AuditPruneCommand``).
    public func run(in environment: CommandEnvironment, context: CommandContext) async -> ExitCode {
        AuditPruneCommand.run(self, context: context)
    }
}
