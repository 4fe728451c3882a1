/// The options of `mediactl audit`.
public struct AuditOptions: MediaCommand {
    /// Every `--state-dir DIR`, in command-line order: one replica each (docs/scale-out.md). Never empty;
    /// without the option: `$MEDIACTL_STATE_DIR`, else `./.mediactl`.
    public var stateDirectories: [String]
    /// `--policies DIR`, to judge what was persisted. Default: `./Policies`.
    public var policiesDirectory: String
    /// `--json`: one JSON document instead of text. Default: `false`.
    public var json: Bool
    /// `--junit FILE`: also write the report as JUnit XML to FILE (``MediaAuditReports/AuditJUnitReport``).
    /// Default: `nil`, no file.
    public var junitFile: String?
    /// `--html FILE`: also write the report as one HTML page to FILE (``MediaAuditReports/AuditHTMLReport``).
    /// Default: `nil`, no file.
    public var htmlFile: String?

    /// The first (with one `--state-dir`, the only) state directory.
    public var stateDirectory: String {
        get { stateDirectories[0] }
        set { stateDirectories[0] = newValue }
    }

    /// `true` with more than one `--state-dir`: the fleet report (``AuditFleetDocument``).
    public var isFleet: Bool { stateDirectories.count > 1 }

    /// - Parameter moreStateDirectories: the state directories after `stateDirectory` (a fleet audit).
    public init(
        stateDirectory: String = CommandDefaults.stateDirectory,
        policiesDirectory: String = CommandDefaults.policiesDirectory, json: Bool = false,
        junitFile: String? = nil, htmlFile: String? = nil, moreStateDirectories: [String] = []
    ) {
        self.stateDirectories = [stateDirectory] + moreStateDirectories
        self.policiesDirectory = policiesDirectory
        self.json = json
        self.junitFile = junitFile
        self.htmlFile = htmlFile
    }

    public static let declaration = CommandDeclaration<Self>(
        path: ["audit"],
        summary: "Report what was persisted, per tier, and any storage that policy forbids.",
        arguments: [
            .option(
                "state-dir", valueName: "DIR", repeatable: true,
                help: "State directory. Repeatable: one per replica, each audited, then the fleet's totals. "
                    + "Default: $MEDIACTL_STATE_DIR when set and non-empty, else ./.mediactl.",
                \.stateDirectories, read: Self.stateDirectories),
            .policies(\.policiesDirectory),
            .json(\.json),
            .text(
                "junit", valueName: "FILE",
                help: "Also write the report as JUnit XML to FILE: a test case per check and tier, a failure per violation.",
                \.junitFile),
            .text(
                "html", valueName: "FILE",
                help: "Also write the report as one self-contained HTML page to FILE (tables and a chart, no script).",
                \.htmlFile),
        ],
        notes: [
            "--junit and --html also write files: stdout (text or --json) and the exit status are unchanged, "
                + "but a file that cannot be written exits 2 (after the report is printed).",
            "With several --state-dir (a fleet, docs/scale-out.md): a report per replica headed by its state directory, "
                + "then the fleet's totals; --json, --junit and --html cover every replica. One unusable replica exits 2.",
            CommandTree.exitCodes(ok: "clean", failure: "violations (a broken chain included) in any replica"),
        ],
        defaults: { AuditOptions() })

    /// Every `--state-dir`, or the default one when none is given.
    /// - Throws: ``UsageError`` `invalid-value` when one state directory is given twice
    ///   (`state directory 'A' is given twice: each replica has its own`).
    private static func stateDirectories(_ input: ArgumentInput) throws(UsageError) -> [String] {
        guard input.isGiven else { return [CommandDefaults.stateDirectory(environment: input.environment)] }
        var seen = Set<String>()
        for directory in input.values where !seen.insert(directory).inserted {
            throw input.error(.invalidValue, "state directory '\(directory)' is given twice: each replica has its own")
        }
        return input.values
    }

    /// Audits every state directory (``AuditCommand``).
    public func run(in environment: CommandEnvironment, context: CommandContext) async -> ExitCode {
        AuditCommand.run(self, context: context, clock: environment.clock?.auditReport ?? .system)
    }
}
