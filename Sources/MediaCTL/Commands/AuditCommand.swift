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
public enum AuditCommand {
    /// Runs the audit and prints it; writes the report files asked for.
    /// - Parameter clock: when the audit starts (the reports' `timestamp`/"generated") and how long it
    ///   takes (the JUnit root's `time`); the system clocks by default.
    /// - Returns: the exit status (see the type's documentation).
    public static func run(_ options: AuditOptions, context: CommandContext, clock: AuditReportClock = .system) -> ExitCode {
        if options.isFleet { return runFleet(options, context: context, clock: clock) }
        let started = clock.monotonicMilliseconds()
        let generatedAt = clock.now()
        do {
            var records = AuditReportContext.TimeRange()
            let document = try audit(options, context: context) { records.add($0.time) }
            if options.json {
                try context.writeJSON(document)
            } else {
                context.stdout.write(document.text)
            }
            var status: ExitCode = document.report.isClean ? .success : .failure
            guard options.junitFile != nil || options.htmlFile != nil else { return status }
            let reportContext = AuditReportContext(
                generatedAt: generatedAt, durationMilliseconds: clock.monotonicMilliseconds() - started,
                records: records, notes: document.logNoteLines + document.inventoryNoteLines)
            if let path = options.junitFile {
                let xml = AuditJUnitReport(report: document.report, context: reportContext).xml
                if let failure = write(xml, to: path, what: "the JUnit report") { status = context.fail(failure) }
            }
            if let path = options.htmlFile {
                let html = AuditHTMLReport(report: document.report, context: reportContext).html
                if let failure = write(html, to: path, what: "the HTML report") { status = context.fail(failure) }
            }
            return status
        } catch {
            return context.fail(error)
        }
    }

    /// `audit` with several `--state-dir`: every replica is audited against the same policies (loaded once)
    /// before the report is printed (a replica judged by other policies than its log's is warned about on stderr as
    /// it is audited); then ``AuditFleetDocument`` as text or JSON and the fleet's JUnit and HTML
    /// files (``MediaAuditReports/AuditFleetJUnitReport``, ``MediaAuditReports/AuditFleetHTMLReport``). Exit 1 when any replica has a
    /// violation; 2, with nothing on stdout, when any replica cannot be audited (the error names its state
    /// directory or log), or, after stdout, when a report file cannot be written.
    static func runFleet(_ options: AuditOptions, context: CommandContext, clock: AuditReportClock) -> ExitCode {
        let started = clock.monotonicMilliseconds()
        let generatedAt = clock.now()
        do {
            let loaded = try PolicyCheckCommand.loadWithDigest(
                options.policiesDirectory, context: context, failure: "cannot audit")
            var replicas: [AuditFleetDocument.Replica] = []
            var ranges: [AuditReportContext.TimeRange] = []
            for state in options.stateDirectories {
                var records = AuditReportContext.TimeRange()
                var document = try audit(stateDirectory: state, policies: loaded.policies) { records.add($0.time) }
                // Each replica's log is compared with the files: one replica left on an older set is named.
                if let mismatch = policiesMismatch(document, loaded: loaded, directory: options.policiesDirectory) {
                    document.policiesMismatch = mismatch
                    context.diagnose("warning: \(state): " + mismatch.line)
                }
                replicas.append(AuditFleetDocument.Replica(stateDirectory: state, document: document))
                ranges.append(records)
            }
            let document = AuditFleetDocument(replicas: replicas)
            if options.json {
                try context.writeJSON(document)
            } else {
                context.stdout.write(document.text)
            }
            var status: ExitCode = document.isClean ? .success : .failure
            guard options.junitFile != nil || options.htmlFile != nil else { return status }
            let fleet = document.fleet(records: ranges, generatedAt: generatedAt)
            let fleetContext = AuditReportContext(
                generatedAt: generatedAt, durationMilliseconds: clock.monotonicMilliseconds() - started)
            if let path = options.junitFile {
                let xml = AuditFleetJUnitReport(fleet: fleet, context: fleetContext).xml
                if let failure = write(xml, to: path, what: "the JUnit report") { status = context.fail(failure) }
            }
            if let path = options.htmlFile {
                let html = AuditFleetHTMLReport(fleet: fleet, context: fleetContext).html
                if let failure = write(html, to: path, what: "the HTML report") { status = context.fail(failure) }
            }
            return status
        } catch {
            return context.fail(error)
        }
    }

    /// Writes one report file; the error to print when it cannot be written.
    private static func write(_ text: String, to path: String, what: String) -> CommandError? {
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
    static func audit(
        _ options: AuditOptions, context: CommandContext, observe: (AuditRecord) -> Void = { _ in }
    ) throws(CommandError) -> AuditDocument {
        try StateDirectoryCheck.requireExisting(options.stateDirectory)
        let loaded = try PolicyCheckCommand.loadWithDigest(
            options.policiesDirectory, context: context, failure: "cannot audit")
        var document = try audit(stateDirectory: options.stateDirectory, policies: loaded.policies, observe: observe)
        if let mismatch = policiesMismatch(document, loaded: loaded, directory: options.policiesDirectory) {
            document.policiesMismatch = mismatch
            context.diagnose("warning: " + mismatch.line)
        }
        return document
    }

    /// How `loaded` differs from the log's last set in force, or `nil` when it is that set: judged by other
    /// policies, the report says so first instead of listing unknown tiers. A service opened in-process (no files)
    /// records the digest of the set itself (PolicyDigest.of): that matches too.
    static func policiesMismatch(
        _ document: AuditDocument, loaded: ServiceSetup.LoadedPolicies, directory: String
    ) -> AuditDocument.PoliciesMismatch? {
        guard let inForce = document.report.policies.last, inForce.digest != loaded.digest,
              inForce.digest != PolicyDigest.of(loaded.policies) else { return nil }
        return AuditDocument.PoliciesMismatch(directory: directory, digest: loaded.digest, inForce: inForce.digest,
                                              seq: inForce.seq)
    }

    /// The document of one state directory judged by `policies` (one replica of a fleet audit).
    /// - Throws: ``CommandError`` with exit 2 (see ``run(_:context:clock:)``).
    static func audit(
        stateDirectory state: String, policies: PolicySet, observe: (AuditRecord) -> Void = { _ in }
    ) throws(CommandError) -> AuditDocument {
        try StateDirectoryCheck.requireExisting(state)
        // A running service may store and remove while this reads. Its record always precedes the file,
        // so the files are scanned first and the log read after: every file found has its record. A file
        // removed after the scan (its removal record then read) is dropped before judging.
        let integrityKey: IntegrityKey?
        do {
            integrityKey = try IntegrityKeyFile.existing(stateDirectory: state)
        } catch {
            throw CommandError(.unreadableFile, "cannot audit state directory '\(state)': \(error)", exitCode: .unusableInput)
        }
        let scanned: StateInventory
        do {
            scanned = try StateInventory.scan(stateDirectory: state, integrityKey: integrityKey)
        } catch {
            throw CommandError(
                .unreadableFile, "cannot scan state directory '\(state)': \(error.context)", exitCode: .unusableInput)
        }
        let directory = try AuditVerifyCommand.requireLog(stateDirectory: state)
        // One streamed pass verifies the chain and reconciles: memory follows the inventory, not the log.
        var reconciliation = AuditReconciliation(
            objectKeys: Set(scanned.objects.map(\.name)), allowedStorage: allowedStorage(policies))
        var notes = AuditDocument.LogNotes()
        let verification: AuditVerification
        do {
            verification = try reconciliation.read(directory: directory) { record in
                notes.add(record)
                observe(record)
            }
        } catch {
            throw AuditVerifyCommand.unreadableLog(directory, error)
        }
        let inventory = stillPresent(scanned, in: state)
        let report = reconciliation.report(
            verification: verification, inventory: inventory.objects.map(persistedObject))
        return AuditDocument(report: report, inventory: inventory, notes: notes, deadServicePid: deadServicePid(state))
    }

    /// The pid of `<state>/serve.json` when that process is not running; `nil` without the file (or when
    /// it cannot be read: `mediactl purge` reports that).
    static func deadServicePid(_ state: String) -> Int32? {
        guard let file = try? ServeStateFile.read(stateDirectory: state), !PurgeCommand.isRunning(file.pid) else {
            return nil
        }
        return file.pid
    }

    /// `inventory` without the entries that are gone by now: objects a running service removed after the
    /// scan, temp files its writes renamed into place meanwhile, and files replaced since the scan (a key
    /// evicted and stored again while the log was read: the file at the path is a new one, whose record
    /// the read may not have reached). `lstat`: nothing is followed; same device and inode: same file.
    static func stillPresent(_ inventory: StateInventory, in state: String) -> StateInventory {
        StateInventory(items: inventory.items.filter { item in
            var info = stat()
            guard lstat(state + "/" + item.path, &info) == 0 else { return false }
            guard let id = item.fileID else { return true }
            return UInt64(info.st_dev) == id.device && UInt64(info.st_ino) == id.inode
        })
    }

    /// Tier name → the widest storage class its policy allows (`none` for a no-store tier).
    static func allowedStorage(_ policies: PolicySet) -> [String: AuditStorage] {
        policies.tiers.mapValues { AuditStorage(rawValue: $0.storage.rawValue) ?? .none }
    }

    /// What the reconciler judges of one scanned entry: the tier of a verified disk entry's metadata, else
    /// (sealed objects, whose metadata is encrypted, and files that are not verified disk entries) the tier
    /// folder it was found in (`sealed/<tier>/…`), else none; whether its sealed header is well formed; and
    /// the length and keyed digest of a disk file's body (or, without the digest, the scan's defect, which says why).
    /// So a plaintext file under `disk/private/` is judged against the `private` tier.
    static func persistedObject(_ item: InventoryItem) -> PersistedObject {
        PersistedObject(
            folder: item.folder == .disk ? .disk : .sealed, key: item.name, bytes: item.bytes,
            tier: item.tier ?? item.tierFolder, isSealed: item.isSealed, path: item.path, bodyBytes: item.bodyBytes,
            bodyDigest: item.bodyDigest.flatMap { try? AuditDigest(hex: $0) },
            bodyUnchecked: item.bodyDigest == nil ? item.defect?.description : nil)
    }
}
