/// A change of the audit writer's state, reported once (``RecoveringAuditLog``'s `onEvent`): `mediactl serve`
/// writes ``message`` to stderr after `mediactl: ` (docs/operations.md, "When the audit log cannot be written").
/// No message holds a credential, URL or record content: only the `errno`, the failed call and its file, times
/// and counts.
public enum AuditWriterEvent: Sendable, Hashable {
    /// The log could not be written: storing stopped; the first retry comes in `retryInMilliseconds`.
    case failed(AuditOutage, retryInMilliseconds: Int64)
    /// A retry wrote the `gap` record `gap` (its `time` ends the outage): storing resumed.
    case recovered(AuditOutage, gap: AuditRecord)
    /// The writer was closed (the service stopped) while the log could not be written: no `stop` record.
    case closedWhileFailing(AuditOutage)

    /// The log line, without a prefix:
    ///
    /// - `audit log cannot be written: EPERM (1) from write /var/lib/mediactl/audit/audit.jsonl; storing stopped
    ///   (responses are served, not stored) until a retry succeeds, the first in 1 s`
    /// - `audit log written again after 12.5 s: storing resumed; 2 storage decisions refused since
    ///   2026-12-02T04:30:57.123Z (EPERM (1)), noted in gap record 17`
    /// - `stopping while the audit log cannot be written (EPERM (1) from write /var/lib/mediactl/audit/audit.jsonl,
    ///   since 2026-12-02T04:30:57.123Z): no stop record written; 2 storage decisions refused`
    public var message: String {
        switch self {
        case .failed(let outage, let delay):
            return "audit log cannot be written: \(outage.cause); storing stopped (responses are served, not stored) "
                + "until a retry succeeds, the first in \(Self.seconds(delay))"
        case .recovered(let outage, let gap):
            let duration = gap.time.millisecondsSinceEpoch - outage.since.millisecondsSinceEpoch
            return "audit log written again after \(Self.seconds(duration)): storing resumed; "
                + "\(Self.decisions(outage.refusedDecisions)) refused since \(outage.since) (\(outage.shortCause)), "
                + "noted in gap record \(gap.seq)"
        case .closedWhileFailing(let outage):
            return "stopping while the audit log cannot be written (\(outage.cause), since \(outage.since)): "
                + "no stop record written; \(Self.decisions(outage.refusedDecisions)) refused"
        }
    }

    /// `1 storage decision`, `2 storage decisions`.
    static func decisions(_ count: Int) -> String {
        "\(count) storage decision\(count == 1 ? "" : "s")"
    }

    /// Milliseconds as seconds without trailing zeros: `1 s`, `1.5 s`, `12.345 s`.
    static func seconds(_ milliseconds: Int64) -> String {
        let value = max(0, milliseconds)
        var fraction = String(value % 1000)
        guard value % 1000 != 0 else { return "\(value / 1000) s" }
        fraction = String(repeating: "0", count: 3 - fraction.count) + fraction
        while fraction.hasSuffix("0") { fraction.removeLast() }
        return "\(value / 1000).\(fraction) s"
    }
}
