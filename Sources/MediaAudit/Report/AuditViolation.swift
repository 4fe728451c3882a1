/// Something persisted or recorded that policy forbids, with its evidence.
public struct AuditViolation: Hashable, Sendable, Codable {
    /// A stable violation kind.
    public struct Kind: Hashable, Sendable, Codable, Comparable, CustomStringConvertible {
        public let rawValue: String
        init(_ rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }
        public static func < (lhs: Kind, rhs: Kind) -> Bool { lhs.rawValue < rhs.rawValue }

        public init(from decoder: any Decoder) throws {
            self.rawValue = try decoder.singleValueContainer().decode(String.self)
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(rawValue)
        }

        /// The hash chain is broken (evidence: the verifier's kind, seq, file and line).
        public static let brokenChain = Kind("broken-chain")
        /// A file in `disk/` whose tier does not allow `disk`.
        public static let diskNotAllowed = Kind("disk-not-allowed")
        /// A file in `sealed/` that is not a sealed object.
        public static let notSealed = Kind("not-sealed")
        /// A persisted object with no `store` record.
        public static let unrecordedObject = Kind("unrecorded-object")
        /// A persisted object whose last record removed it (evict, expire, purge, invalidate, shred).
        public static let removedObjectPresent = Kind("removed-object-present")
        /// A persisted object in a folder other than the storage its last `store` record names.
        public static let storageMismatch = Kind("storage-mismatch")
        /// A `disk/` object whose body is not the one its key's last `store`/`update` record describes by
        /// `bytes` and `bodyDigest` (replaced, truncated, or not checkable: docs/audit-format.md, "Body digests").
        /// Records without `bodyDigest` (earlier logs) are not judged.
        public static let bodyMismatch = Kind("body-mismatch")
        /// A `store` record for a tier whose storage is `none`.
        public static let storeInNoStoreTier = Kind("store-in-no-store-tier")
        /// A `store` record with storage wider than its tier allows.
        public static let storeWiderThanTier = Kind("store-wider-than-tier")
        /// A `store` record or persisted object of a tier the policies do not define.
        public static let unknownTier = Kind("unknown-tier")
        /// A `store` record that the policy in force when it was written (the last `policy` batch before it)
        /// forbade: a tier it did not define, no-store, a wider storage class or a `ttl` over its `maxTTL`.
        public static let forbiddenByPolicyInForce = Kind("forbidden-by-policy-in-force")
        /// A variant's `store` record names a storage class wider than its source's last `store`/`update`
        /// record before it (narrower is allowed).
        public static let variantWiderThanSource = Kind("variant-wider-than-source")
        /// A variant's `store` record has another `partition` than its source's (one null and one not counts).
        public static let variantPartitionMismatch = Kind("variant-partition-mismatch")
        /// A variant's `store` record has another `tier` than its source's.
        public static let variantTierMismatch = Kind("variant-tier-mismatch")
        /// A variant's `derivedFrom` names a key with no earlier `store` or `update` record still in effect
        /// (docs/audit-format.md, "Variants", for what the reconciliation remembers).
        public static let variantSourceUnrecorded = Kind("variant-source-unrecorded")
    }

    /// The kind.
    public let kind: Kind
    /// The tier concerned, if known.
    public let tier: String?
    /// The key concerned (hex), if any.
    public let key: String?
    /// The folder of the persisted object concerned, if any.
    public let folder: PersistedObject.Folder?
    /// The `seq` of the record that is the evidence (or where the chain breaks), if any.
    public let seq: Int?
    /// The evidence for people, one line.
    public let evidence: String

    public init(
        kind: Kind, tier: String? = nil, key: String? = nil, folder: PersistedObject.Folder? = nil,
        seq: Int? = nil, evidence: String
    ) {
        self.kind = kind
        self.tier = tier
        self.key = key
        self.folder = folder
        self.seq = seq
        self.evidence = evidence
    }
}

extension AuditViolation {
    private enum CodingKeys: String, CodingKey { case kind, tier, key, folder, seq, evidence }

    /// JSON: every key present, `null` when absent.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(kind, forKey: .kind)
        try container.encode(tier, forKey: .tier)
        try container.encode(key, forKey: .key)
        try container.encode(folder, forKey: .folder)
        try container.encode(seq, forKey: .seq)
        try container.encode(evidence, forKey: .evidence)
    }
}
