import MediaCrypto

/// One line of the audit log: an ``AuditEntry`` plus the writer-assigned `seq`, `time`, `prev` and `hash`.
///
/// Entry fields read through directly: `record.event`, `record.key`, `record.partition`.
/// `hash` = SHA-256 of ``canonicalJSON(includingHash:)`` with `includingHash: false` (which contains `prev`).
@dynamicMemberLookup
public struct AuditRecord: Hashable, Sendable {
    /// Position in the log, 1, 2, …, continuing across rotated segments.
    public let seq: Int
    /// When the writer appended the record.
    public let time: AuditTime
    /// What the record says.
    public let entry: AuditEntry
    /// `hash` of the previous record, or ``AuditDigest/zero`` for the first.
    public let prev: AuditDigest
    /// SHA-256 over the canonical JSON of this record without `hash`.
    public let hash: AuditDigest

    /// Builds a record and computes its hash.
    public init(seq: Int, time: AuditTime, entry: AuditEntry, prev: AuditDigest) {
        let draft = AuditRecord(seq: seq, time: time, entry: entry, prev: prev, hash: .zero)
        self.init(seq: seq, time: time, entry: entry, prev: prev, hash: draft.computedHash)
    }

    /// A record with a given (possibly wrong) hash, as read from a line.
    init(seq: Int, time: AuditTime, entry: AuditEntry, prev: AuditDigest, hash: AuditDigest) {
        self.seq = seq
        self.time = time
        self.entry = entry
        self.prev = prev
        self.hash = hash
    }

    /// SHA-256 over `canonicalJSON(includingHash: false)`.
    public var computedHash: AuditDigest {
        AuditDigest(SHA256.hash(canonicalBytes(includingHash: false)))
    }

    public subscript<Value>(dynamicMember keyPath: KeyPath<AuditEntry, Value>) -> Value {
        entry[keyPath: keyPath]
    }
}
