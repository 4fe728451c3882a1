import Glibc
import MediaAudit
import MediaAuditReports
import MediaPolicy
import MediaService
import MediaStorage

/// One state directory's audit: its log reconciled with the files it holds, judged by the policies.
extension AuditCommand {
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
            bodyUnchecked: item.bodyDigest == nil ? item.defect?.description : nil, sealedKeyID: item.sealedKeyID)
    }
}
