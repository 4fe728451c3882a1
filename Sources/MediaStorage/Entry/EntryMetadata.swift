/// What a store keeps about an entry besides its body. Knows no HTTP: the response head is opaque bytes.
///
/// Times are seconds since 1970-01-01 UTC (`Double`), as given by the caller; no store reads a clock.
public struct EntryMetadata: Hashable, Sendable {
    /// The cache key string (primary key + partition + Vary secondary key, as the service builds it).
    public var key: String
    /// The tier name, e.g. `"private"`.
    public var tier: String
    /// The route name, e.g. `"receipts"`.
    public var route: String
    /// The partition: hex keyed digest of the credential, or `nil` for shared tiers.
    public var partition: String?
    /// The storage class that holds the entry. Set by the store on ``MediaStoring/store(_:for:)``.
    public var storageClass: StorageClassName
    /// The stored response head (status line and fields, serialized by the caller), opaque bytes.
    public var head: [UInt8]
    /// When the request that produced the response was sent (RFC 9111 §4.2.3 `request_time`), seconds since epoch.
    public var requestTime: Double
    /// When the response was received (RFC 9111 §4.2.3 `response_time`), seconds since epoch.
    public var responseTime: Double
    /// When the entry becomes useless and may be swept (not the freshness lifetime), seconds since epoch.
    public var expiresAt: Double
    /// Body length in bytes. Set by the store from the body on ``MediaStoring/store(_:for:)``.
    public var bodyByteCount: Int
    /// The freshness lifetime the caller stored the entry with, seconds (the service: the decided TTL with the age at
    /// receipt, RFC 9111 §4.2.1), kept in the index so a policy reload can compare it with a new cap without reading
    /// heads; `nil` when unknown (files written before it was recorded). Opaque to the stores.
    public var lifetime: Double?
    /// The keyed digests of the origin's cache tags (docs/policy-format.md "Cache tags"), kept in the index so a removal
    /// by tag needs no head: 32 bytes each, counted in the index's cost (``indexUnits``). Default: none.
    public var tags: [CacheTagDigest] = []

    /// What the entry counts for against a file store's `countLimit`, in units of about 1 KiB of index memory: one
    /// for the entry (its metadata without the head, ≈ 0.9 KB with its key; docs/storage.md "Index memory"), plus
    /// one per started KiB of its cache tag digests (32 bytes each: 128 tags are 4 more). So tags never take the
    /// index past the memory its count limit stands for.
    public var indexUnits: Int {
        1 + (tags.count * CacheTagDigest.byteCount + 1023) / 1024
    }

    public init(
        key: String, tier: String, route: String, partition: String? = nil,
        storageClass: StorageClassName = .memory, head: [UInt8] = [], requestTime: Double, responseTime: Double,
        expiresAt: Double, bodyByteCount: Int = 0, lifetime: Double? = nil, tags: [CacheTagDigest] = []
    ) {
        self.tags = tags
        self.key = key
        self.tier = tier
        self.route = route
        self.partition = partition
        self.storageClass = storageClass
        self.head = head
        self.requestTime = requestTime
        self.responseTime = responseTime
        self.expiresAt = expiresAt
        self.bodyByteCount = bodyByteCount
        self.lifetime = lifetime
    }
}
