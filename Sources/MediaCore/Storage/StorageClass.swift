/// Where a response may be kept, from widest to narrowest: `disk` > `encrypted-disk` > `memory` > `none`.
///
/// `Comparable` by width: `StorageClass.none < .memory < .encryptedDisk < .disk`, so narrowing two
/// decisions is `min(a, b)`. Raw values are the policy-file and audit-log spellings. One type for policies, the hook
/// chain, the service and audit records (MediaAudit's `AuditStorage` is this type).
/// Mapping onto Foundation's `URLCache.StoragePolicy`: docs/storage-classes.md.
public enum StorageClass: String, Sendable, Hashable, CaseIterable, Codable, Comparable, CustomStringConvertible {
    /// Persistent plaintext files under `disk/`; survives restarts.
    case disk = "disk"
    /// AES-256-GCM sealed files under `sealed/`, key only in process memory; unreadable after a restart.
    case encryptedDisk = "encrypted-disk"
    /// Process memory only.
    case memory = "memory"
    /// Not kept anywhere beyond the response.
    case none = "none"

    /// 0 for `none` up to 3 for `disk`.
    public var width: Int {
        switch self {
        case .none: return 0
        case .memory: return 1
        case .encryptedDisk: return 2
        case .disk: return 3
        }
    }

    /// Whether the class writes files (`disk`, `encrypted-disk`).
    public var isPersistent: Bool { self == .disk || self == .encryptedDisk }

    public static func < (lhs: StorageClass, rhs: StorageClass) -> Bool { lhs.width < rhs.width }

    public var description: String { rawValue }
}
