/// What was persisted, per tier and storage class, and every violation: the `mediactl audit` report.
///
/// Built by ``AuditReconciler/report(records:verification:inventory:allowedStorage:)``; renders as text
/// (``text``) or as one JSON document (`Codable`, shape in docs/audit-format.md).
public struct AuditReport: Hashable, Sendable, Codable {
    /// Counts for one (tier, storage class) pair.
    public struct Row: Hashable, Sendable, Codable {
        /// The storage class (`disk`, `encrypted-disk`, `memory`, `none`).
        public var storage: AuditStorage
        /// `store` records.
        public var stored = 0
        /// `update` records.
        public var updated = 0
        /// `skip` records by reason code (`none` when a skip has no reason).
        public var skipped: [String: Int] = [:]
        /// `evict` records.
        public var evicted = 0
        /// `expire` records.
        public var expired = 0
        /// Per-key `purge` records (summaries, with a null `key`, are not counted twice).
        public var purged = 0
        /// `invalidate` records.
        public var invalidated = 0
        /// Per-key `shred` records.
        public var shredded = 0
        /// Objects persisted now (from the inventory).
        public var objects = 0
        /// Bytes persisted now (from the inventory).
        public var bytes = 0
        /// `store` records of variants (records with `derivedFrom`), also counted in ``stored``.
        public var variantsStored = 0
        /// Objects persisted now whose key's last `store`/`update` record has `derivedFrom` (also counted in
        /// ``objects``).
        public var variantObjects = 0

        public init(storage: AuditStorage) { self.storage = storage }
    }

    /// One tier's rows, widest storage first.
    public struct Tier: Hashable, Sendable, Codable {
        /// The tier name.
        public var tier: String
        /// The widest storage the policies allow, or `nil` for a tier they do not define.
        public var allowedStorage: AuditStorage?
        /// Rows, widest storage first.
        public var rows: [Row]

        private enum CodingKeys: String, CodingKey { case tier, allowedStorage, rows }

        public init(tier: String, allowedStorage: AuditStorage?, rows: [Row]) {
            self.tier = tier
            self.allowedStorage = allowedStorage
            self.rows = rows
        }

        /// JSON: `allowedStorage` is `null` for a tier the policies do not define.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(tier, forKey: .tier)
            try container.encode(allowedStorage, forKey: .allowedStorage)
            try container.encode(rows, forKey: .rows)
        }
    }

    /// Chain verification of the log the records came from.
    public var chain: AuditVerification
    /// Number of records reconciled.
    public var recordCount: Int
    /// Tiers sorted by name: every tier of the policies plus any other tier seen in records or objects.
    public var tiers: [Tier]
    /// Violations: the chain first, then record violations by `seq`, then objects by folder and key.
    public var violations: [AuditViolation]
    /// Every policy set the log says was put in force (its `policy` batches), in log order, each with the
    /// number of `store` records written while it was in force; empty for a log without `policy` records.
    public var policies: [PolicyUse]
    /// Sealed files whose data key the log says was destroyed (notes, not violations), by path.
    public var shreddedRemnants: [ShreddedRemnant]

    /// One `policy` batch of the log: which set was in force from which record, and for how many stores.
    public struct PolicyUse: Hashable, Sendable, Codable {
        /// Hex SHA-256 of the policy set (the batch's `key`).
        public var digest: String
        /// `seq` of the batch's summary record.
        public var seq: Int
        /// The summary's reason: `policy-loaded` (service start) or `policy-reloaded`.
        public var reason: String?
        /// `store` records between this batch and the next.
        public var stores: Int

        public init(digest: String, seq: Int, reason: String?, stores: Int) {
            self.digest = digest
            self.seq = seq
            self.reason = reason
            self.stores = stores
        }
    }

    /// `true` when there are no violations.
    public var isClean: Bool { violations.isEmpty }

    /// Process exit code for `mediactl audit`: 0 clean, 1 violations.
    public var exitCode: Int32 { isClean ? 0 : 1 }

    private enum CodingKeys: String, CodingKey { case clean, chain, recordCount, tiers, violations, policies, shreddedRemnants }

    public init(chain: AuditVerification, recordCount: Int, tiers: [Tier], violations: [AuditViolation],
                policies: [PolicyUse] = [], shreddedRemnants: [ShreddedRemnant] = []) {
        self.shreddedRemnants = shreddedRemnants
        self.chain = chain
        self.recordCount = recordCount
        self.tiers = tiers
        self.violations = violations
        self.policies = policies
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        chain = try container.decode(AuditVerification.self, forKey: .chain)
        recordCount = try container.decode(Int.self, forKey: .recordCount)
        tiers = try container.decode([Tier].self, forKey: .tiers)
        violations = try container.decode([AuditViolation].self, forKey: .violations)
        policies = try container.decodeIfPresent([PolicyUse].self, forKey: .policies) ?? []
        shreddedRemnants = try container.decodeIfPresent([ShreddedRemnant].self, forKey: .shreddedRemnants) ?? []
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(isClean, forKey: .clean)
        try container.encode(chain, forKey: .chain)
        try container.encode(recordCount, forKey: .recordCount)
        try container.encode(tiers, forKey: .tiers)
        try container.encode(violations, forKey: .violations)
        try container.encode(policies, forKey: .policies)
        // Only when there are any: reports of logs without crypto-shredding keep their keys.
        if !shreddedRemnants.isEmpty { try container.encode(shreddedRemnants, forKey: .shreddedRemnants) }
    }
}
