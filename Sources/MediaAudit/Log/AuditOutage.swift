/// A stretch of time during which the audit log could not be written (docs/audit-format.md, "Gaps"): what
/// ``AuditWriterStateMachine`` knows while it is failing, and what the `gap` record says once it recovers.
public struct AuditOutage: Hashable, Sendable {
    /// When the first append failed (the injected clock): the `gap` record's `since`.
    public let since: AuditTime
    /// Why it failed: the first failure's error (its `errno`, ``AuditError/systemError``, when a system call failed).
    public let failure: AuditError
    /// Storage decisions (`store`, `update`, `skip` records, ``AuditEvent/isStorageDecision``) refused since: each
    /// a response served and not stored. The `gap` record's `count`.
    public internal(set) var refusedDecisions = 0
    /// Every record refused since, decisions included (removals such as `expire` or a purge batch, `policy`,
    /// `stop`): these records are not in the log.
    public internal(set) var refusedRecords = 0
    /// Retries that failed so far.
    public internal(set) var failedRetries = 0
    /// When the next retry is due (the injected clock).
    public internal(set) var nextRetry: AuditTime

    public init(since: AuditTime, failure: AuditError, nextRetry: AuditTime) {
        self.since = since
        self.failure = failure
        self.nextRetry = nextRetry
    }

    /// The `gap` record's reason: `audit-unavailable:<errno name>` in lower case (`audit-unavailable:eperm`,
    /// `audit-unavailable:enospc`), `audit-unavailable` when the failure names no `errno`.
    public var reason: ReasonCode {
        let text = failure.systemError.map { "audit-unavailable:" + $0.reasonSuffix } ?? "audit-unavailable"
        return (try? ReasonCode(text)) ?? .auditUnavailable
    }

    /// The failure in a few words: `EPERM (1) from write /var/lib/mediactl/audit/audit.jsonl` for a failed system
    /// call, else the error's code and context (`corrupt-log: audit.jsonl changed while …`).
    public var cause: String {
        if let errno = failure.systemError, let operation = failure.operation { return "\(errno) from \(operation)" }
        return failure.description
    }

    /// `EPERM (1)` when the failure names an `errno`, else its code (`corrupt-log`).
    public var shortCause: String { failure.systemError?.description ?? failure.code.rawValue }

    /// The `gap` record written first when the log recovers: `since`, `count` = ``refusedDecisions``, ``reason``.
    public var gapEntry: AuditEntry {
        AuditEntry(event: .gap, reason: reason, count: refusedDecisions, since: since)
    }
}
