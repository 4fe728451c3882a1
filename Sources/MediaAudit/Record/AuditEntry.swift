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
    /// For a variant (a derived image): the `key` of the source's stored response, the digest its own
    /// `store` record names; `nil` for every other record. Only on `store` and `update`, always together
    /// with ``transform``.
    public var derivedFrom: AuditDigest?
    /// For a variant: its normalised parameters (`w=144,fit=inside,fmt=jpeg,q=80`); `nil` otherwise.
    /// Only on `store` and `update`, always together with ``derivedFrom``.
    public var transform: AuditTransform?
    /// For the `store` or `update` of a body kept in a file (`disk`, `encrypted-disk`): the body's keyed digest,
    /// HMAC-SHA256 under a key derived from the install's integrity key (MediaStorage's `IntegrityKey`), of the
    /// ``bytes`` bytes stored; `nil` otherwise (and in logs written before it existed). Keyed, so the log alone
    /// cannot confirm a guess of a body (docs/audit-format.md, "Body digests"). Only on `store` and `update`,
    /// always with ``bytes``.
    public var bodyDigest: AuditDigest?

    /// On a `gap` record (and only there, always): when the log stopped being written, the time of the first
    /// append that failed (docs/audit-format.md, "Gaps"); `nil` on every other record.
    public var since: AuditTime?

    /// On the `store` of a negative entry (and only there): the HTTP status it answers with, `400`–`599`
    /// (docs/audit-format.md, "Negative entries"); `nil` on every other record.
    public var status: Int?
    /// On the `store` and `update` of an `encrypted-disk` object: the id of the data key that seals it; on a `shred`
    /// with reason `partition-key-destroyed`: the key destroyed (docs/storage.md, "Data keys").
    public var keyId: AuditKeyID?

    /// On a purge by cache tag, its summary `purge` record (and only there): the tag's keyed digest
    /// (docs/audit-format.md, "Cache tags"); `nil` on every other record.
    public var tag: AuditDigest?

    /// Creates an entry. Numbers must be non-negative; the writer refuses negative ones with
    /// ``AuditError/Code/invalidNumber``, `derivedFrom`/`transform` other than both on a `store` or
    /// `update` with ``AuditError/Code/invalidDerivation``, `bodyDigest` other than on a `store` or `update`
    /// with `bytes` with ``AuditError/Code/invalidBodyDigest``, and `since` anywhere but on a `gap` (or a `gap`
    /// without it) with ``AuditError/Code/invalidGap`` (see ``validate()``).
    public init(
        event: AuditEvent, tier: AuditName? = nil, route: AuditName? = nil, storage: AuditStorage? = nil,
        key: AuditDigest? = nil, scope: AuditScope = .none, reason: ReasonCode? = nil,
        bytes: Int? = nil, ttl: Int? = nil, count: Int? = nil,
        derivedFrom: AuditDigest? = nil, transform: AuditTransform? = nil, bodyDigest: AuditDigest? = nil,
        since: AuditTime? = nil, status: Int? = nil, tag: AuditDigest? = nil, keyId: AuditKeyID? = nil
    ) {
        self.keyId = keyId
        self.tag = tag
        self.status = status
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
        self.derivedFrom = derivedFrom
        self.transform = transform
        self.bodyDigest = bodyDigest
        self.since = since
    }

    /// The `partition` field.
    public var partition: AuditDigest? { scope.partition }
    /// The `url` field.
    public var url: AuditURL? { scope.url }

    /// `true` when the entry describes a variant (it has ``derivedFrom``).
    public var isVariant: Bool { derivedFrom != nil }

    /// Checks the numeric fields, then the variant fields, then the body digest, then `since`, then `status`
    /// (``AuditError/Code/invalidNumber``: `status is allowed only on store records, got skip`, `status must be from
    /// 400 to 599, got 200`).
    /// - Throws: ``AuditError/Code/invalidNumber`` naming the first negative field;
    ///   ``AuditError/Code/invalidDerivation`` when `derivedFrom` or `transform` is on an event other than
    ///   `store` or `update` (`derivedFrom and transform are allowed only on store and update records, got
    ///   evict`), or one is set without the other (`derivedFrom and transform go together: transform is
    ///   missing`); ``AuditError/Code/invalidBodyDigest`` when `bodyDigest` is on another event
    ///   (`bodyDigest is allowed only on store and update records, got skip`) or without `bytes`
    ///   (`bodyDigest needs bytes`); ``AuditError/Code/invalidGap`` when `since` is on an event other than `gap`
    ///   (`since is allowed only on gap records, got store`) or a `gap` has none (`a gap record needs since`).
    public func validate() throws {
        for (name, value) in [("bytes", bytes), ("ttl", ttl), ("count", count)] {
            if let value, value < 0 {
                throw AuditError(.invalidNumber, "\(name) must be >= 0, got \(value)")
            }
        }
        if let problem = derivationProblem { throw AuditError(.invalidDerivation, problem) }
        if let problem = bodyDigestProblem { throw AuditError(.invalidBodyDigest, problem) }
        if let problem = gapProblem { throw AuditError(.invalidGap, problem) }
        if let problem = statusProblem { throw AuditError(.invalidNumber, problem) }
        if let problem = tagProblem { throw AuditError(.invalidName, problem) }
        if let problem = keyIdProblem { throw AuditError(.invalidName, problem) }
    }

    /// Why `keyId` is not allowed as it is, or `nil` when it is (absent, or on a `store`, `update` or `shred`). The
    /// parser refuses a line for the same reasons.
    var keyIdProblem: String? {
        guard keyId != nil else { return nil }
        return [.store, .update, .shred].contains(event) ? nil : "keyId is allowed only on store, update and shred records, got \(event.rawValue)"
    }

    /// Why `tag` is not allowed as it is, or `nil` when it is (absent, or on a `purge` summary: no `key`). The parser
    /// refuses a line for the same reasons.
    var tagProblem: String? {
        guard tag != nil else { return nil }
        return event == .purge && key == nil ? nil : "tag is allowed only on the summary record of a purge, got \(event.rawValue)"
    }

    /// Why `status` is not allowed as it is, or `nil` when it is (absent, or `400`–`599` on a `store`). The parser
    /// refuses a line for the same reasons.
    var statusProblem: String? {
        guard let status else { return nil }
        guard event == .store else { return "status is allowed only on store records, got \(event.rawValue)" }
        return (400...599).contains(status) ? nil : "status must be from 400 to 599, got \(status)"
    }

    /// Why `bodyDigest` is not allowed as it is, or `nil` when it is (absent, or on a `store` or `update` with
    /// `bytes`). The parser refuses a line for the same reasons.
    var bodyDigestProblem: String? {
        guard bodyDigest != nil else { return nil }
        guard event == .store || event == .update else {
            return "bodyDigest is allowed only on store and update records, got \(event.rawValue)"
        }
        return bytes == nil ? "bodyDigest needs bytes" : nil
    }

    /// Why `since` is not allowed as it is, or `nil` when it is (on a `gap` record, and only there). The parser
    /// refuses a line for the same reasons.
    var gapProblem: String? {
        if event == .gap { return since == nil ? "a gap record needs since" : nil }
        return since == nil ? nil : "since is allowed only on gap records, got \(event.rawValue)"
    }

    /// Why the variant fields are not allowed as they are, or `nil` when they are (both absent, or both
    /// present on a `store` or `update`). The parser refuses a line for the same reasons.
    var derivationProblem: String? {
        guard derivedFrom != nil || transform != nil else { return nil }
        guard event == .store || event == .update else {
            return "derivedFrom and transform are allowed only on store and update records, got \(event.rawValue)"
        }
        if derivedFrom == nil { return "derivedFrom and transform go together: derivedFrom is missing" }
        if transform == nil { return "derivedFrom and transform go together: transform is missing" }
        return nil
    }
}
