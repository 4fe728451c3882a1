/// The audit of a fleet: one ``AuditReport`` per replica (each replica's own state directory, audited
/// against the same policies) and the fleet's totals (`mediactl audit --state-dir A --state-dir B …`,
/// docs/scale-out.md).
///
/// JSON (`Encodable`): `{"clean", "replicas": N, "replicasWithViolations": [name…], "brokenChains": [name…],
/// "recordCount", "violations": N, "objects", "bytes", "tiers": [...]}` for ``Totals``; the replicas
/// themselves are encoded by the caller, which adds what it knows of each state directory.
public struct AuditFleet: Hashable, Sendable {
    /// One replica: its name (the state directory as given), its report and what its JUnit and HTML
    /// renderings show besides the report (its records' time range, its notes).
    public struct Replica: Hashable, Sendable {
        /// The state directory as given on the command line, e.g. `/srv/mediactl/a`.
        public var name: String
        /// The replica's report.
        public var report: AuditReport
        /// The replica's records' time range and notes; `generatedAt` and the duration are the fleet's.
        public var context: AuditReportContext

        public init(name: String, report: AuditReport, context: AuditReportContext) {
            self.name = name
            self.report = report
            self.context = context
        }
    }

    /// What the fleet holds and violates altogether.
    public struct Totals: Hashable, Sendable, Encodable {
        /// Number of replicas audited.
        public var replicas: Int
        /// The names of the replicas with at least one violation, in fleet order.
        public var replicasWithViolations: [String]
        /// The names of the replicas whose chain is broken, in fleet order.
        public var brokenChains: [String]
        /// Records reconciled, all replicas together.
        public var recordCount: Int
        /// Violations, all replicas together.
        public var violationCount: Int
        /// Tiers sorted by name, each row the sum of that (tier, storage class) row over the replicas;
        /// a tier's allowed storage is the first replica's (the policies are the same for all).
        public var tiers: [AuditReport.Tier]

        /// `true` when no replica has a violation.
        public var isClean: Bool { replicasWithViolations.isEmpty }
        /// Objects persisted now, all tiers and replicas.
        public var objects: Int { tiers.reduce(0) { $0 + $1.rows.reduce(0) { $0 + $1.objects } } }
        /// Bytes persisted now, all tiers and replicas.
        public var bytes: Int { tiers.reduce(0) { $0 + $1.rows.reduce(0) { $0 + $1.bytes } } }

        private enum CodingKeys: String, CodingKey {
            case clean, replicas, replicasWithViolations, brokenChains, recordCount, violations, objects, bytes, tiers
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(isClean, forKey: .clean)
            try container.encode(replicas, forKey: .replicas)
            try container.encode(replicasWithViolations, forKey: .replicasWithViolations)
            try container.encode(brokenChains, forKey: .brokenChains)
            try container.encode(recordCount, forKey: .recordCount)
            try container.encode(violationCount, forKey: .violations)
            try container.encode(objects, forKey: .objects)
            try container.encode(bytes, forKey: .bytes)
            try container.encode(tiers, forKey: .tiers)
        }
    }

    /// The replicas, in command-line order.
    public var replicas: [Replica]

    public init(replicas: [Replica]) { self.replicas = replicas }

    /// `true` when no replica has a violation.
    public var isClean: Bool { replicas.allSatisfy(\.report.isClean) }

    /// The totals (see ``Totals``).
    public var totals: Totals {
        var tiers: [String: AuditReport.Tier] = [:]
        for replica in replicas {
            for tier in replica.report.tiers {
                var merged = tiers[tier.tier] ?? AuditReport.Tier(tier: tier.tier, allowedStorage: tier.allowedStorage, rows: [])
                if merged.allowedStorage == nil { merged.allowedStorage = tier.allowedStorage }
                for row in tier.rows {
                    if let index = merged.rows.firstIndex(where: { $0.storage == row.storage }) {
                        merged.rows[index].add(row)
                    } else {
                        merged.rows.append(row)
                    }
                }
                tiers[tier.tier] = merged
            }
        }
        let sorted = tiers.values.sorted { $0.tier < $1.tier }.map { tier in
            var tier = tier
            tier.rows.sort { $0.storage.width > $1.storage.width }
            return tier
        }
        return Totals(
            replicas: replicas.count,
            replicasWithViolations: replicas.filter { !$0.report.isClean }.map(\.name),
            brokenChains: replicas.filter { $0.report.chain.failure != nil }.map(\.name),
            recordCount: replicas.reduce(0) { $0 + $1.report.recordCount },
            violationCount: replicas.reduce(0) { $0 + $1.report.violations.count },
            tiers: sorted)
    }
}

extension AuditReport.Row {
    /// Adds another row's counts (the same storage class on another replica).
    mutating func add(_ other: AuditReport.Row) {
        stored += other.stored
        updated += other.updated
        skipped.merge(other.skipped, uniquingKeysWith: +)
        evicted += other.evicted
        expired += other.expired
        purged += other.purged
        invalidated += other.invalidated
        shredded += other.shredded
        objects += other.objects
        bytes += other.bytes
        variantsStored += other.variantsStored
        variantObjects += other.variantObjects
    }
}
