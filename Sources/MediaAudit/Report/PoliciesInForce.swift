/// The `policy` batches of a log as the reconciliation streams it (docs/audit-format.md, "Policy records"):
/// which set is in force at the current record, what it allowed per tier, and how many `store` records each
/// set governed. Memory: one entry per batch plus the tiers of the current one.
struct PoliciesInForce: Sendable {
    /// One policy set in force: its digest, the `seq` of its summary record and, per tier, the storage class
    /// and `maxTTL` its tier records name.
    struct InForce: Sendable {
        let digest: String
        let seq: Int
        var tiers: [String: (storage: AuditStorage, maxTTL: Int?)] = [:]

        /// `forbidden-by-policy-in-force` violations of a `store` record of `tier` in `storage` under this set.
        func violations(_ record: AuditRecord, tier: String, storage: AuditStorage) -> [AuditViolation] {
            let name = "policy \(digest.prefix(16))… (record \(seq))"
            func violation(_ why: String) -> [AuditViolation] {
                [AuditViolation(kind: .forbiddenByPolicyInForce, tier: tier, key: record.key?.hex, seq: record.seq,
                                evidence: "store record \(record.seq) \(why) under \(name)")]
            }
            guard let allowed = tiers[tier] else { return violation("names tier \(tier), which was not defined") }
            if allowed.storage == .none { return violation("stored in \(storage.rawValue) for no-store tier \(tier)") }
            if storage > allowed.storage {
                return violation("stored in \(storage.rawValue); tier \(tier) allowed at most \(allowed.storage.rawValue)")
            }
            if let ttl = record.ttl, let maxTTL = allowed.maxTTL, ttl > maxTTL {
                return violation("has ttl \(ttl); tier \(tier) allowed at most maxTTL \(maxTTL)")
            }
            return []
        }
    }

    /// The set in force at the current record, or `nil` before the first `policy` batch.
    private(set) var current: InForce?
    /// Every batch seen, in log order.
    private(set) var uses: [AuditReport.PolicyUse] = []

    /// Folds in one `policy` record: a summary (no tier) puts its set in force; a tier record of the same set
    /// adds that tier's limits.
    mutating func note(_ record: AuditRecord) {
        guard let digest = record.key?.hex else { return }
        guard let tier = record.tier?.rawValue else {
            current = InForce(digest: digest, seq: record.seq)
            uses.append(AuditReport.PolicyUse(digest: digest, seq: record.seq, reason: record.reason?.rawValue, stores: 0))
            return
        }
        guard current?.digest == digest else { return }
        current?.tiers[tier] = (record.storage ?? AuditStorage.none, record.ttl)
    }

    /// Counts a `store` record for the set in force.
    mutating func countStore() {
        guard !uses.isEmpty else { return }
        uses[uses.count - 1].stores += 1
    }
}
