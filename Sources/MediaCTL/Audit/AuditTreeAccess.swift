import MediaAudit
import MediaService

/// What `audit public-key`, `audit checkpoint`, `audit prove` and `audit consistency` read: the state directory's
/// audit signing key (``MediaService/AuditSigningKeyFile``) and the Merkle tree of its log (``MediaAudit/AuditTree``).
enum AuditTreeAccess {
    /// The signer of `stateDirectory`.
    /// - Throws: ``CommandError`` (exit 2): `no-state-directory`; `no-signing-key`
    ///   (`no audit signing key in 'X/keys/audit-signing.key': the service makes it when it first starts`);
    ///   `unreadable-file` for a key file that is refused.
    static func signer(stateDirectory: String) throws(CommandError) -> NoteSigner {
        try StateDirectoryCheck.requireExisting(stateDirectory)
        let path = stateDirectory + "/" + AuditSigningKeyFile.relativePath
        do {
            guard let signer = try AuditSigningKeyFile.existing(stateDirectory: stateDirectory) else {
                throw CommandError(.noSigningKey, "no audit signing key in '\(path)': the service makes it when it first starts",
                                   exitCode: .unusableInput)
            }
            return signer
        } catch let error as CommandError {
            throw error
        } catch {
            throw CommandError(.unreadableFile, "\(error)", exitCode: .unusableInput)
        }
    }

    /// The tree of `stateDirectory`'s log.
    /// - Throws: ``CommandError`` (exit 2): `no-audit-log`; `unreadable-file` (`cannot read the audit log in 'X/audit':
    ///   …`, a pruned log included).
    /// - Parameters:
    ///   - checkpointObjects: when given, sees first the records a prune carried into its checkpoint (the last `store`,
    ///     then `update`, of each object still stored at the last pruned record: ``MediaAudit/AuditCheckpoint``).
    ///   - visiting: sees each record read (``MediaAudit/AuditTree/read(directory:visiting:)``).
    static func tree(stateDirectory: String, checkpointObjects: ((AuditRecord) -> Void)? = nil,
                     visiting: (AuditRecord) -> Void = { _ in }) throws(CommandError) -> AuditTree {
        let directory = try AuditVerifyCommand.requireLog(stateDirectory: stateDirectory)
        do {
            if let checkpointObjects {
                try AuditCheckpoint.read(directory: directory)?.forEachObject(directory: directory, checkpointObjects)
            }
            return try AuditTree.read(directory: directory, visiting: visiting)
        } catch {
            throw AuditVerifyCommand.unreadableLog(directory, error)
        }
    }

    /// `size`, or the tree's size when `nil`, checked against the tree.
    /// - Throws: ``CommandError`` `outside-log` (exit 2): `--size 50: the log has 42 records (allowed: 1…42)`.
    static func size(_ size: Int?, in tree: AuditTree) throws(CommandError) -> Int {
        let chosen = size ?? tree.size
        guard chosen >= 1, chosen <= tree.size else {
            throw CommandError(.outsideLog, "--size \(chosen): the log has \(tree.size) records (allowed: 1…\(max(tree.size, 1)))",
                               exitCode: .unusableInput)
        }
        return chosen
    }

    /// The signer, the tree and the size (`size`, or the tree's when `nil`) of `stateDirectory`'s log, checked.
    static func open(stateDirectory: String, size: Int?) throws(CommandError)
        -> (signer: NoteSigner, tree: AuditTree, size: Int)
    {
        let signer = try signer(stateDirectory: stateDirectory)
        let tree = try tree(stateDirectory: stateDirectory)
        return (signer, tree, try Self.size(size, in: tree))
    }

    /// The signed checkpoint note of the first `size` records.
    static func signedCheckpoint(_ tree: AuditTree, size: Int, signer: NoteSigner) throws(CommandError) -> String {
        do {
            return try signer.sign(tree.checkpoint(size: size, origin: signer.name).text)
        } catch {
            throw CommandError(.unreadableFile, "cannot sign the checkpoint: \(error.context)", exitCode: .failure)
        }
    }
}
