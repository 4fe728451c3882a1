/// Reconciles the audit log with what is on disk. Pure: the caller passes the records, the chain
/// verification and the inventory it scanned. For a log too large to hold, feed an
/// ``AuditReconciliation`` while streaming it (``report(stateDirectory:inventory:allowedStorage:)``).
public enum AuditReconciler {
    /// Builds the report.
    ///
    /// - Parameters:
    ///   - records: the log's records in order (``AuditReader/records(directory:)``).
    ///   - verification: the chain check of the same log (``AuditVerifier/verify(directory:)``).
    ///   - inventory: every file found in `disk/` and `sealed/`.
    ///   - allowedStorage: tier name → widest storage its policy allows (`none` for a no-store tier).
    /// - Returns: counts per tier and storage class, and the violations (see ``AuditViolation/Kind``).
    /// - Complexity: O(records + objects).
    public static func report(
        records: [AuditRecord], verification: AuditVerification, inventory: [PersistedObject],
        allowedStorage: [String: AuditStorage]
    ) -> AuditReport {
        var reconciliation = AuditReconciliation(objectKeys: Set(inventory.map(\.key)), allowedStorage: allowedStorage)
        for record in records { reconciliation.add(record) }
        return reconciliation.report(verification: verification, inventory: inventory)
    }

    /// Reads and verifies `<stateDirectory>/audit` in one streamed pass (from its checkpoint, whose
    /// objects' records count as earlier changes), then builds the report for `inventory`. Memory grows
    /// with the inventory, not with the log.
    /// - Throws: ``AuditError/Code/io`` when the log cannot be read.
    public static func report(
        stateDirectory: String, inventory: [PersistedObject], allowedStorage: [String: AuditStorage]
    ) throws -> AuditReport {
        var reconciliation = AuditReconciliation(objectKeys: Set(inventory.map(\.key)), allowedStorage: allowedStorage)
        let verification = try reconciliation.read(directory: stateDirectory + "/audit")
        return reconciliation.report(verification: verification, inventory: inventory)
    }
}
