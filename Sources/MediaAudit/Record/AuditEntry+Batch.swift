extension AuditEntry {
    /// The entries of a removal batch (docs/audit-format.md, "Purge and shred batches"): every removed
    /// key's entry with `event` and `reason` set, followed by a summary with `key` null and
    /// `count` = `removed.count`. Append the result with ``AuditLog/append(contentsOf:)``.
    ///
    /// - Parameters:
    ///   - event: normally `purge` or `shred` (any removal event is accepted).
    ///   - reason: e.g. ``ReasonCode/purgeCredential``, ``ReasonCode/unreadableAfterRestart``.
    ///   - tier, route, scope: what the batch was scoped to, for the summary (`nil`/`.none` for all).
    ///   - removed: one entry per removed key (`key`, `tier`, `route`, `storage`, `scope`, `bytes`).
    /// - Returns: `removed.count + 1` entries.
    public static func removalBatch(
        event: AuditEvent, reason: ReasonCode, tier: AuditName? = nil, route: AuditName? = nil,
        scope: AuditScope = .none, removed: [AuditEntry]
    ) -> [AuditEntry] {
        var entries = removed.map { entry in
            var entry = entry
            entry.event = event
            entry.reason = reason
            entry.count = nil
            return entry
        }
        entries.append(AuditEntry(
            event: event, tier: tier, route: route, scope: scope, reason: reason, count: removed.count))
        return entries
    }
}
