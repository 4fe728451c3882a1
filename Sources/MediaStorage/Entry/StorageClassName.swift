/// The name of a storage class, as written in policies and audit records.
///
/// An open set (new classes may be added): `disk`, `encrypted-disk`, `memory`. The class `none`
/// has no store. Compared by ``rawValue``.
public struct StorageClassName: Hashable, Sendable, CustomStringConvertible {
    /// The policy / audit spelling, e.g. `"encrypted-disk"`.
    public let rawValue: String

    public init(_ rawValue: String) { self.rawValue = rawValue }
    public var description: String { rawValue }

    /// Persistent plain files under `disk/`.
    public static let disk = StorageClassName("disk")
    /// AES-256-GCM sealed files under `sealed/`, key only in process memory.
    public static let encryptedDisk = StorageClassName("encrypted-disk")
    /// Process memory only.
    public static let memory = StorageClassName("memory")
}
