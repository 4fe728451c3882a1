import Foundation
import MediaAudit

/// Lists what is persisted in a state directory's object folders (`disk/`, `sealed/`) for
/// ``MediaAudit/AuditReconciler``: every regular file, named by its file name (the audit `key`),
/// with its size; `sealed/` files are checked for the sealed-object magic `MCSE`. Tiers are left to
/// the audit records (`tier` is `nil`).
public enum StateInventory {
    /// Every file under `<stateDirectory>/disk` and `<stateDirectory>/sealed`, sorted by folder and key.
    /// Missing folders are empty.
    public static func scan(stateDirectory: String) -> [PersistedObject] {
        var objects: [PersistedObject] = []
        for folder in PersistedObject.Folder.allCases {
            let root = stateDirectory + "/" + folder.rawValue
            guard let walker = FileManager.default.enumerator(atPath: root) else { continue }
            while let relative = walker.nextObject() as? String {
                let path = root + "/" + relative
                guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
                    attributes[.type] as? FileAttributeType == .typeRegular
                else { continue }
                let size = (attributes[.size] as? NSNumber)?.intValue ?? 0
                let key = String(relative.split(separator: "/").last ?? "")
                objects.append(
                    PersistedObject(
                        folder: folder, key: key, bytes: size, tier: nil,
                        isSealed: folder == .sealed && hasSealedMagic(path)))
            }
        }
        return objects.sorted { ($0.folder.rawValue, $0.key) < ($1.folder.rawValue, $1.key) }
    }

    /// Whether the file starts with `MCSE` (MediaStorage's sealed-object format).
    static func hasSealedMagic(_ path: String) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        let prefix = (try? handle.read(upToCount: 4)) ?? Data()
        return [UInt8](prefix) == Array("MCSE".utf8)
    }

    /// The audit report of `stateDirectory` under `policies`: chain verification, records and this inventory.
    /// - Throws: ``MediaAudit/AuditError`` `io` when the log cannot be read.
    public static func report(stateDirectory: String, allowedStorage: [String: AuditStorage]) throws -> AuditReport {
        try AuditReconciler.report(
            stateDirectory: stateDirectory, inventory: scan(stateDirectory: stateDirectory),
            allowedStorage: allowedStorage)
    }
}
