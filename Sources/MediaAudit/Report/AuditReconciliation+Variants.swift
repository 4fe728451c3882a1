extension AuditReconciliation {
    /// The variant violations of one `store` record with `derivedFrom`, judged against its source's last
    /// `store`/`update` before it (`nil`: none is remembered). In this order:
    /// `variant-source-unrecorded` alone, else any of `variant-wider-than-source`,
    /// `variant-partition-mismatch`, `variant-tier-mismatch`.
    ///
    /// Evidence names the variant key, its source key and the two values; partitions appear as their first
    /// 16 hex digits followed by `…` (or `none`), e.g.
    /// `variant 5c1e… (store record 12) stored in disk; its source 9a0f… was last stored in encrypted-disk (record 7)`.
    static func variantViolations(
        _ record: AuditRecord, derivedFrom: AuditDigest, source: VariantSources.Source?
    ) -> [AuditViolation] {
        let key = record.key?.hex
        let tier = record.tier?.rawValue
        let variant = "variant \(key ?? "null") (store record \(record.seq))"
        func violation(_ kind: AuditViolation.Kind, _ evidence: String) -> AuditViolation {
            AuditViolation(kind: kind, tier: tier, key: key, seq: record.seq, evidence: evidence)
        }
        guard let source else {
            return [violation(
                .variantSourceUnrecorded,
                "\(variant) derives from \(derivedFrom.hex), which has no earlier store or update record")]
        }
        let origin = "its source \(derivedFrom.hex)"
        var found: [AuditViolation] = []
        let storage = record.storage ?? AuditStorage.none
        if storage > source.storage {
            found.append(violation(
                .variantWiderThanSource,
                "\(variant) stored in \(storage.rawValue); \(origin) was last stored in \(source.storage.rawValue) (record \(source.seq))"))
        }
        let partition = record.partition.map(VariantSources.prefix)
        if partition != source.partitionPrefix {
            found.append(violation(
                .variantPartitionMismatch,
                "\(variant) has partition \(shown(partition)); \(origin) has partition \(shown(source.partitionPrefix)) (record \(source.seq))"))
        }
        if tier != source.tier {
            found.append(violation(
                .variantTierMismatch,
                "\(variant) has tier \(tier ?? "null"); \(origin) has tier \(source.tier ?? "null") (record \(source.seq))"))
        }
        return found
    }

    /// A partition prefix as 16 hex digits and `…`, or `none`.
    private static func shown(_ prefix: UInt64?) -> String {
        guard let prefix else { return "none" }
        let hex = String(prefix, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex + "…"
    }
}
