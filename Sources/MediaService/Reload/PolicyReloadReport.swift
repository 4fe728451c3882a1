/// What ``MediaService/reload(policies:digest:)`` did.
public struct PolicyReloadReport: Sendable, Hashable {
    /// Hex SHA-256 of the set now in force.
    public var digest: String
    /// Hex SHA-256 of the set it replaced.
    public var previousDigest: String
    /// Tiers whose runtime (stores, counters) was kept as it was: the tier is unchanged.
    public var keptTiers: [String]
    /// Changed tiers that kept their stores (only limits such as `maxTTL` changed).
    public var updatedTiers: [String]
    /// Changed tiers that start on new, empty stores (storage class, budget or key scope changed).
    public var replacedTiers: [String]
    /// New tiers.
    public var addedTiers: [String]
    /// Tiers no longer defined.
    public var removedTiers: [String]
    /// Stored responses removed because the new set forbids them (each audited `purge`).
    public var removedObjects: Int
}
