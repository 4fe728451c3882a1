import Glibc
import MediaAudit
import MediaAuditReports
import MediaPolicy
import MediaService
import MediaStorage

/// `mediactl audit [--state-dir DIR]... [--policies DIR] [--json] [--junit FILE] [--html FILE]`: what was
/// persisted, per tier and storage class, and every violation of the policies (docs/audit-report.md).
/// With several `--state-dir`, every replica of a fleet and the fleet's totals (``runFleet(_:context:clock:)``).
///
/// Steps: read the install's integrity key (``MediaService/IntegrityKeyFile``, never made here), scan `disk/`
/// and `sealed/` read-only (``MediaStorage/StateInventory``: every disk file read whole, its tags verified and its
/// body digested under the key), take each tier's widest allowed storage from the policies, then stream the log
/// once (``AuditReader``), verifying the hash chain (``AuditChainCheck``) and reconciling
/// (``AuditReconciliation``, which compares each disk body with its record's `bytes` and `bodyDigest`) as it goes.
///
/// Output: ``MediaAudit/AuditReport/text`` followed, when the scan found temp files or defective
/// entries, by an `inventory notes: N` section; with `--json`, one ``AuditDocument``. Then, with
/// `--junit FILE`, ``MediaAuditReports/AuditJUnitReport/xml`` is written to FILE and, with `--html FILE`,
/// ``MediaAuditReports/AuditHTMLReport/html`` (created with mode 0600, or truncated; the log and inventory notes
/// are their notes, the records' first and last `time` their time range).
/// Exit: 0 clean, 1 violations, 2 unusable input (no state directory, invalid or unreadable
/// policies, no audit log, unreadable log or folders, a `keys/integrity.key` that is refused (readable by group
/// or others, not 32 bytes); or a report file that cannot be written:
/// `cannot write the JUnit report 'FILE': <reason>`, `cannot write the HTML report 'FILE': <reason>`,
/// after stdout is written and after trying the other file).
public struct AuditCommand: MediaCommand {
    /// Every `--state-dir DIR`, in command-line order: one replica each (docs/scale-out.md). Never empty;
    /// without the option: `$MEDIACTL_STATE_DIR`, else `./.mediactl`.
    public var stateDirectories = [CommandDefaults.stateDirectory]
    /// `--policies DIR`, to judge what was persisted. Default: `./Policies`.
    public var policiesDirectory = CommandDefaults.policiesDirectory
    /// `--json`: one JSON document instead of text. Default: `false`.
    public var json = false
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

    public static let declaration = CommandDeclaration<Self>(
        path: ["audit"],
        summary: "Report what was persisted, per tier, and any storage that policy forbids.",
        arguments: [
            .option(
                "state-dir", valueName: "DIR", repeatable: true,
                help: "State directory. Repeatable: one per replica, each audited, then the fleet's totals. "
                    + CommandDefaults.stateDirectoryHelp,
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
        defaults: { Self() })

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

    /// Audits every state directory.
    public func run(in environment: CommandEnvironment, context: CommandContext) async -> ExitCode {
        run(context: context, clock: environment.clock?.auditReport ?? .system)
    }

    /// Runs the audit and prints it; writes the report files asked for.
    /// - Parameter clock: when the audit starts (the reports' `timestamp`/"generated") and how long it
    ///   takes (the JUnit root's `time`); the system clocks by default.
    /// - Returns: the exit status (see the type's documentation).
    func run(context: CommandContext, clock: AuditReportClock = .system) -> ExitCode {
        if isFleet { return runFleet(context: context, clock: clock) }
        let started = clock.monotonicMilliseconds()
        let generatedAt = clock.now()
        do {
            var records = AuditReportContext.TimeRange()
            let document = try audit(context: context) { records.add($0.time) }
            if json {
                try context.writeJSON(document)
            } else {
                context.stdout.write(document.text)
            }
            var status: ExitCode = document.report.isClean ? .success : .failure
            guard junitFile != nil || htmlFile != nil else { return status }
            let reportContext = AuditReportContext(
                generatedAt: generatedAt, durationMilliseconds: clock.monotonicMilliseconds() - started,
                records: records, notes: document.logNoteLines + document.inventoryNoteLines)
            if let path = junitFile {
                let xml = AuditJUnitReport(report: document.report, context: reportContext).xml
                if let failure = Self.write(xml, to: path, what: "the JUnit report") { status = context.fail(failure) }
            }
            if let path = htmlFile {
                let html = AuditHTMLReport(report: document.report, context: reportContext).html
                if let failure = Self.write(html, to: path, what: "the HTML report") { status = context.fail(failure) }
            }
            return status
        } catch {
            return context.fail(error)
        }
    }

    /// Writes one report file; the error to print when it cannot be written.
    static func write(_ text: String, to path: String, what: String) -> CommandError? {
        do {
            try FileAccess.writeFile(Array(text.utf8), to: path, what: what)
            return nil
        } catch {
            return error
        }
    }

    /// Builds the document. Policy problems are printed as diagnostics before the error is thrown.
    /// - Parameter observe: called with every record reconciled, in chain order.
    /// - Throws: ``CommandError`` with exit 2 (see ``run(_:context:clock:)``).
    func audit(
        context: CommandContext, observe: (AuditRecord) -> Void = { _ in }
    ) throws(CommandError) -> AuditDocument {
        try StateDirectoryCheck.requireExisting(stateDirectory)
        let loaded = try PolicyCheckCommand.loadWithDigest(
            policiesDirectory, context: context, failure: "cannot audit")
        var document = try Self.audit(stateDirectory: stateDirectory, policies: loaded.policies, observe: observe)
        if let mismatch = Self.policiesMismatch(document, loaded: loaded, directory: policiesDirectory) {
            document.policiesMismatch = mismatch
            context.diagnose("warning: " + mismatch.line)
        }
        return document
    }
}
