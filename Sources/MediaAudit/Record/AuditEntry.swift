/// The content of an audit record as a caller provides it: everything except `seq`, `time`, `prev` and
/// `hash`, which ``AuditLog`` assigns.
///
/// Every field is typed so that no credential, cookie, private URL or body byte can be passed: names,
/// reason codes and digests have narrow shapes, numbers are counts, and there is no bytes payload.
public struct AuditEntry: Hashable, Sendable {
    /// The event.
    public var event: AuditEvent
    /// The tier name, or `nil` (for `start`/`stop`, or batch summaries spanning tiers).
    public var tier: AuditName?
    /// The route name, or `nil`.
    public var route: AuditName?
    /// The storage class concerned, or `nil`.
    public var storage: AuditStorage?
    /// Hex digest of the cache key. For persisted objects this is the hex name of the object in
    /// `disk/` or `sealed/` (see docs/audit-format.md), or `nil` for records about no single key.
    public var key: AuditDigest?
    /// Partition and URL (`partition`, `url` fields).
    public var scope: AuditScope
    /// Stable reason code, or `nil`.
    public var reason: ReasonCode?
    /// Body size in bytes, or `nil`. Never negative.
    public var bytes: Int?
    /// Freshness lifetime in seconds, or `nil`. Never negative.
    public var ttl: Int?
    /// Number of keys removed by a `purge`/`shred` summary record, or `nil`. Never negative.
    public var count: Int?

    /// Creates an entry. Numbers must be non-negative; the writer refuses negative ones with
    /// ``AuditError/Code/invalidNumber``.
    public init(
        event: AuditEvent, tier: AuditName? = nil, route: AuditName? = nil, storage: AuditStorage? = nil,
        key: AuditDigest? = nil, scope: AuditScope = .none, reason: ReasonCode? = nil,
        bytes: Int? = nil, ttl: Int? = nil, count: Int? = nil
    ) {
        self.event = event
        self.tier = tier
        self.route = route
        self.storage = storage
        self.key = key
        self.scope = scope
        self.reason = reason
        self.bytes = bytes
        self.ttl = ttl
        self.count = count
    }

    /// The `partition` field.
    public var partition: AuditDigest? { scope.partition }
    /// The `url` field.
    public var url: AuditURL? { scope.url }

    /// Checks the numeric fields.
    /// - Throws: ``AuditError/Code/invalidNumber`` naming the first negative field.
    public func validate() throws {
        for (name, value) in [("bytes", bytes), ("ttl", ttl), ("count", count)] {
            if let value, value < 0 {
                throw AuditError(.invalidNumber, "\(name) must be >= 0, got \(value)")
            }
        }
    }
}
