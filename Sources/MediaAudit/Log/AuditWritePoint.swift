/// A change the audit log is about to make to its files (`will…`), or an fsync that returned
/// (``synced(throughSeq:activeBytes:)``), reported to an ``AuditWriteObserver``. Crash tests cut the power
/// at each `will…` point: what the last ``synced(throughSeq:activeBytes:)`` covered survives, the rest of
/// `audit.jsonl` is lost.
public enum AuditWritePoint: Hashable, Sendable {
    /// About to `write(2)` `records` (consecutive `seq`) to `audit.jsonl`, which then ends at `endOffset` bytes.
    case willAppend(records: [AuditRecord], endOffset: Int)
    /// About to fsync `audit.jsonl`, which holds the records up to `throughSeq` in its first `activeBytes` bytes.
    case willSync(throughSeq: Int, activeBytes: Int)
    /// The fsync returned: the records up to `throughSeq`, and the first `activeBytes` bytes of the file that
    /// was `audit.jsonl` when it started, are durable.
    case synced(throughSeq: Int, activeBytes: Int)
    /// About to rename the full (and fsynced) `audit.jsonl` to the segment `segment` and create an empty
    /// `audit.jsonl`.
    case willRotate(segment: String)
    /// The rotation is done: `audit.jsonl` is new and empty (its folder fsynced).
    case rotated
}

/// Observes an ``AuditLog``'s ``AuditWritePoint``s in order, on the thread that makes the change, sometimes
/// under the log's lock: it must not call back into the log. For tests (power-cut simulation).
public protocol AuditWriteObserver: Sendable {
    func reached(_ point: AuditWritePoint)
}
