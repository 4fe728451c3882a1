import Glibc
import MediaAudit
import MediaPolicy
import MediaStorage

/// `mediactl audit [--state-dir DIR] [--policies DIR] [--json]`: what was persisted, per tier and
/// storage class, and every violation of the policies (docs/audit-report.md).
///
/// Steps: scan `disk/` and `sealed/` read-only (``MediaStorage/StateInventory``), take each tier's
/// widest allowed storage from the policies, then stream the log once (``AuditReader``), verifying
/// the hash chain (``AuditChainCheck``) and reconciling (``AuditReconciliation``) as it goes.
///
/// Output: ``MediaAudit/AuditReport/text`` followed, when the scan found temp files or defective
/// entries, by an `inventory notes: N` section; with `--json`, one ``AuditDocument``.
/// Exit: 0 clean, 1 violations, 2 unusable input (no state directory, invalid or unreadable
/// policies, no audit log, unreadable log or folders).
public enum AuditCommand {
    public static func run(_ options: AuditOptions, context: CommandContext) -> ExitCode {
        do {
            let document = try audit(options, context: context)
            if options.json {
                try context.writeJSON(document)
            } else {
                context.stdout.write(document.text)
            }
            return document.report.isClean ? .success : .failure
        } catch {
            return context.fail(error)
        }
    }

    /// Builds the document. Policy problems are printed as diagnostics before the error is thrown.
    /// - Throws: ``CommandError`` with exit 2 (see ``run(_:context:)``).
    static func audit(_ options: AuditOptions, context: CommandContext) throws(CommandError) -> AuditDocument {
        let state = options.stateDirectory
        try StateDirectoryCheck.requireExisting(state)
        let policies = try PolicyCheckCommand.load(
            options.policiesDirectory, context: context, failure: "cannot audit")
        // A running service may store and remove while this reads. Its record always precedes the file,
        // so the files are scanned first and the log read after: every file found has its record. A file
        // removed after the scan (its removal record then read) is dropped before judging.
        let scanned: StateInventory
        do {
            scanned = try StateInventory.scan(stateDirectory: state)
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
            verification = try reconciliation.read(directory: directory) { notes.add($0) }
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

    /// What the reconciler judges of one scanned entry: the tier of a disk entry's metadata, else
    /// (sealed objects, whose metadata is encrypted, and files that are not disk entries) the tier
    /// folder it was found in (`sealed/<tier>/…`), else none; and whether its sealed header is well formed.
    /// So a plaintext file under `disk/private/` is judged against the `private` tier.
    static func persistedObject(_ item: InventoryItem) -> PersistedObject {
        PersistedObject(
            folder: item.folder == .disk ? .disk : .sealed, key: item.name, bytes: item.bytes,
            tier: item.tier ?? item.tierFolder, isSealed: item.isSealed, path: item.path)
    }
}
