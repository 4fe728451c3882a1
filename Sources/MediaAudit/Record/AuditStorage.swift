/// A storage class, the `storage` field of an audit record; ordered from narrowest (`none`) to widest (`disk`).
public enum AuditStorage: String, Sendable, Hashable, CaseIterable, Codable, Comparable {
    /// Not stored.
    case none
    /// Process memory only.
    case memory
    /// `sealed/`: AES-256-GCM with a key held only in process memory.
    case encryptedDisk = "encrypted-disk"
    /// `disk/`: plaintext files that survive restarts.
    case disk

    /// Width rank: `none` 0, `memory` 1, `encrypted-disk` 2, `disk` 3.
    public var width: Int {
        switch self {
        case .none: return 0
        case .memory: return 1
        case .encryptedDisk: return 2
        case .disk: return 3
        }
    }

    public static func < (lhs: AuditStorage, rhs: AuditStorage) -> Bool { lhs.width < rhs.width }
}
