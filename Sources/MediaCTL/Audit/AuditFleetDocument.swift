import MediaAudit

/// The output of `mediactl audit --state-dir A --state-dir B …` (more than one state directory: a fleet
/// of replicas, docs/scale-out.md): every replica's ``AuditDocument`` headed by its state directory, then
/// the fleet's totals (``MediaAudit/AuditFleet/Totals``).
///
/// Text:
/// ```
/// replica 1 of 2: A
/// <A's AuditDocument text>
///
/// replica 2 of 2: B
/// <B's AuditDocument text>
///
/// fleet: 2 replicas, 21 records, chains intact 2 of 2
/// <the tier tables summed over the replicas>
///
/// fleet clean: no violations in 2 replicas
/// ```
/// or, as the last line, `fleet violations: 3 in 1 of 2 replicas: B`.
///
/// JSON (one document, keys sorted): `{"clean": Bool, "replicas": [{"stateDirectory": "A", <A's
/// AuditDocument keys>}, …], "totals": <Totals>}`.
public struct AuditFleetDocument: Sendable, Encodable {
    /// One replica: its state directory as given and its document.
    public struct Replica: Sendable, Encodable {
        public var stateDirectory: String
        public var document: AuditDocument

        private enum CodingKeys: String, CodingKey { case stateDirectory }

        /// The document's keys plus `stateDirectory`.
        public func encode(to encoder: any Encoder) throws {
            try document.encode(to: encoder)
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(stateDirectory, forKey: .stateDirectory)
        }
    }

    /// The replicas, in command-line order.
    public var replicas: [Replica]

    public init(replicas: [Replica]) { self.replicas = replicas }

    /// The replicas' reports as an ``MediaAudit/AuditFleet``, each with `contexts[i]` (the records' time
    /// range and notes of replica `i`; the notes are the document's log and inventory notes).
    public func fleet(records: [AuditReportContext.TimeRange], generatedAt: AuditTime) -> AuditFleet {
        AuditFleet(replicas: replicas.enumerated().map { offset, replica in
            AuditFleet.Replica(
                name: replica.stateDirectory, report: replica.document.report,
                context: AuditReportContext(
                    generatedAt: generatedAt, records: offset < records.count ? records[offset] : .init(),
                    notes: replica.document.logNoteLines + replica.document.inventoryNoteLines))
        })
    }

    /// `true` when no replica has a violation.
    public var isClean: Bool { replicas.allSatisfy(\.document.report.isClean) }

    /// The totals.
    public var totals: AuditFleet.Totals { fleet(records: [], generatedAt: AuditTime(millisecondsSinceEpoch: 0)).totals }

    /// The text (see the type's documentation).
    public var text: String {
        var out = ""
        for (offset, replica) in replicas.enumerated() {
            if offset > 0 { out += "\n" }
            out += "replica \(offset + 1) of \(replicas.count): \(replica.stateDirectory)\n" + replica.document.text
        }
        let totals = self.totals
        let intact = totals.replicas - totals.brokenChains.count
        out += "\nfleet: \(totals.replicas) replicas, \(totals.recordCount) records, chains intact \(intact) of \(totals.replicas)\n"
        out += AuditReport.tierTables(totals.tiers)
        if totals.isClean { return out + "\nfleet clean: no violations in \(totals.replicas) replicas\n" }
        return out + "\nfleet violations: \(totals.violationCount) in \(totals.replicasWithViolations.count) of \(totals.replicas) "
            + "replicas: " + totals.replicasWithViolations.joined(separator: ", ") + "\n"
    }

    private enum CodingKeys: String, CodingKey { case clean, replicas, totals }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(isClean, forKey: .clean)
        try container.encode(replicas, forKey: .replicas)
        try container.encode(totals, forKey: .totals)
    }
}
