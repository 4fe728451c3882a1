extension AuditVerification {
    /// One line for `mediactl audit verify`, ending in `\n`:
    /// `ok: 14 records, last hash <hex>` (after a prune: `ok: 14 records after the checkpoint at seq 52431,
    /// last hash <hex>`) or
    /// `failed: hash-mismatch at seq 3 (audit.jsonl line 3): <detail>; 2 records verified`.
    public var text: String {
        let after = checkpointSeq > 0 ? " after the checkpoint at seq \(checkpointSeq)" : ""
        guard let failure else { return "ok: \(recordCount) records\(after), last hash \(lastHash.hex)\n" }
        return "failed: \(failure.kind) at seq \(failure.seq) (\(failure.file) line \(failure.line)): "
            + "\(failure.detail); \(recordCount) records verified\(after)\n"
    }

    /// Process exit code for `mediactl audit verify`: 0 intact, 1 broken.
    public var exitCode: Int32 { isIntact ? 0 : 1 }
}
