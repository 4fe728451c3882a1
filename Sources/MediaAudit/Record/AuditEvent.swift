/// What happened, the `event` field of an audit record.
public enum AuditEvent: String, Sendable, Hashable, CaseIterable, Codable {
    /// The service started (reason `repaired-torn-tail` after a torn tail was truncated).
    case start
    /// A response was stored in `storage`.
    case store
    /// A response was not stored; `reason` says why.
    case skip
    /// A stored response's metadata was updated (RFC 9111 §4.3.4, a 304 merge).
    case update
    /// Removed to make room (LRU).
    case evict
    /// Removed because it was stale and could no longer be served.
    case expire
    /// Removed by `mediactl purge` (per-key records plus a summary; see docs/audit-format.md).
    case purge
    /// Removed by RFC 9111 §4.4 invalidation (an unsafe method).
    case invalidate
    /// An encrypted-disk object made unreadable by a restart was deleted.
    case shred
    /// The service stopped.
    case stop
    /// The policy set in force from this record on (at start and at each reload): `key` = the set's SHA-256;
    /// a summary record (no tier, `count` = tiers) then one per tier with its `storage` and `maxTTL` as `ttl`
    /// (docs/audit-format.md, "Policy records").
    case policy
    /// The log could not be written for a while and is written again (docs/audit-format.md, "Gaps"): written
    /// first once the writer recovers, `since` = when the first append failed, `time` = when it recovered,
    /// `count` = the storage decisions (`store`, `update`, `skip`) refused meanwhile, `reason`
    /// `audit-unavailable:<errno name>` (e.g. `audit-unavailable:eperm`).
    case gap

    /// `true` for the decisions about one response (`store`, `update`, `skip`): what a ``gap`` record counts.
    public var isStorageDecision: Bool {
        switch self {
        case .store, .update, .skip: return true
        default: return false
        }
    }

    /// `true` for the events after which the key is no longer persisted.
    public var removesObject: Bool {
        switch self {
        case .evict, .expire, .purge, .invalidate, .shred: return true
        case .start, .store, .skip, .update, .stop, .policy, .gap: return false
        }
    }
}
