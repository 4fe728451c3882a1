import MediaCore

/// One privacy tier of a policy (`tiers.<name>` in a policy file): where, how long and under which
/// credential rules responses of its routes are kept. Times are seconds, sizes bytes.
/// Every key, default and limit: docs/policy-format.md.
public struct Tier: Sendable, Hashable {
    /// The tier's name, e.g. `public`.
    public var name: String
    /// The widest storage class the tier allows. Required in a policy file.
    public var storage: StorageClass
    /// The RFC 9111 cache role. Default: `shared`.
    public var cache: CacheRole
    /// What happens to request credentials. Default: `strip`.
    public var credentials: CredentialPolicy
    /// Cache partitioning. Default: `none`.
    public var partition: Partition
    /// Upper bound on the time to live, seconds (RFC 9111 §1.2.2 delta-seconds range). Default: 86,400.
    public var maxTTL: Int
    /// Name of the query parameter that versions a URL (e.g. `v`), or `nil`. Default: `nil`.
    public var versionParameter: String?
    /// Time-to-live cap, seconds, for requests without the version parameter; `nil` = ``maxTTL``.
    /// Only with ``versionParameter``. Default: `nil`.
    public var unversionedMaxTTL: Int?
    /// The freshness lifetime, seconds, of a `200` whose origin gives no explicit freshness (no `max-age`,
    /// `s-maxage` or `Expires`), before RFC 9111's heuristic; capped like any lifetime (``ttlCap(versioned:)``).
    /// `nil` = none. Default: `nil`.
    public var defaultTTL: Int? = nil
    /// Whether a response without explicit freshness and without ``defaultTTL`` gets RFC 9111 §4.2.2's heuristic
    /// (10 % of its `Last-Modified` age); `false` makes it stale at once (stored, then validated on each use).
    /// Default: `true`.
    public var heuristic: Bool = true
    /// Query parameters dropped before keying and before the origin fetch: exact names, or a prefix ending with
    /// `*` (`utm_*`). Names compare byte for byte, not percent-decoded (``query(withoutIgnored:)``). Default: none.
    public var ignoredQueryParameters: [String] = []
    /// On a tier with ``variants``: query parameters besides the ``versionParameter`` that are keyed and passed
    /// to the origin (any other parameter is refused with `400 variant-not-allowed`). Default: none.
    public var passQueryParameters: [String] = []
    /// Negative caching (docs/policy-format.md, "Negative caching"): seconds an origin error is stored, by
    /// key of ``errorTTLKeys`` (`"404"`, `"410"`, … or `"refused"`). Only on image tiers that are shared and not
    /// partitioned. Default: none (every error reaches the origin).
    public var errorTTL: [String: Int] = [:]
    /// The response field the origin lists its cache tags in, space-separated (`"Surrogate-Key"`, `"Cache-Tag"`;
    /// docs/policy-format.md, "Cache tags"): kept with the object as keyed digests, inherited by its variants, removed
    /// from every answer, and what `mediactl purge --tag` matches. `nil` = none. Default: `nil`.
    public var tagHeader: String? = nil
    /// Largest response body kept or served, bytes. Default: 10,485,760 (10 MiB).
    public var maxObjectBytes: Int
    /// Largest image (width × height) accepted, pixels. Default: 50,000,000.
    public var maxPixels: Int
    /// Accepted sniffed media types; `["*/*"]` turns image validation off.
    /// Default: `image/jpeg`, `image/png`, `image/gif`, `image/webp`, `image/avif`.
    public var contentTypes: [String]
    /// `Cache-Control` sent to clients, or `nil` (the origin's passes through, see
    /// ``downstreamCacheControl(origin:)``). Default: `nil`.
    public var downstreamCacheControl: String?
    /// Origin request timeout, seconds. Default: 15.
    public var originTimeout: Double
    /// The tier's memory budget, bytes. Default: 67,108,864 (64 MiB).
    public var memoryBytes: Int
    /// The tier's disk budget (`disk` or `encrypted-disk`), bytes. Default: 1,073,741,824 (1 GiB).
    public var diskBytes: Int
    /// Seconds past expiry a stale object may be served while the origin fails (RFC 9111 §4.2.4). Default: 0.
    public var serveStaleOnError: Int
    /// Seconds an `encrypted-disk` data key seals objects before its partition gets a new one (crypto-shredding;
    /// docs/storage.md, "Data keys"); a key also seals at most 2^32 objects. Default: 86,400.
    public var keyLifetime: Int = 86_400
    /// Derived images the tier allows (``Variants``), or `nil`: the query passes to the origin. Default: `nil`.
    public var variants: Variants?
    /// Animated variants (policy key `animation`): the frame and pixel budget within which an animated source keeps
    /// its frames; `nil`: variants are the first frame. Only with ``variants``. Default: `nil`.
    public var animation: Animation? = nil
    /// Metadata in served and stored originals. Default: ``MetadataPolicy/keep``.
    public var metadata: MetadataPolicy
    /// The targeted cache-control fields honoured, in order (RFC 9213), or `nil` for the role's default
    /// (see ``targetedFields``). Default: `nil`.
    public var targetedCacheControl: [String]?
    /// Whether a shared tier stores answers that set cookies. Default: ``SetCookiePolicy/refuse``.
    public var setCookie: SetCookiePolicy
    /// Signed capability URLs the tier accepts (``SignedURLPolicy``), or `nil`: none. Default: `nil`.
    public var signedURLs: SignedURLPolicy?
    /// Cross-origin reads answered for the tier's routes (``CORSPolicy``; a route's own `cors` wins), or `nil`.
    /// Default: `nil`.
    public var cors: CORSPolicy?
    /// Whether a generic tier forwards the origin's interim responses (`103 Early Hints`, `102`) to its clients.
    /// Default: `false`: fronts such as nginx before 1.29 take a `103` for the final answer.
    public var forwardInterim: Bool
    /// Client request fields an image tier passes to its origin beyond its own (docs/policy-format.md,
    /// "What reaches the origin"), in policy order, e.g. `["Accept-Language"]`; a name with `_` here is also let
    /// through the HTTP parser. Generic tiers forward every end-to-end field anyway. Default: `[]`.
    public var forwardRequestHeaders: [String]

    /// The image media types the service can sniff, the default of ``contentTypes``.
    public static let imageContentTypes = ["image/jpeg", "image/png", "image/gif", "image/webp", "image/avif"]

    /// Creates a tier; every parameter but `name` and `storage` has the policy-file default.
    public init(
        name: String, storage: StorageClass, cache: CacheRole = .shared, credentials: CredentialPolicy = .strip,
        partition: Partition = .none, maxTTL: Int = 86_400, versionParameter: String? = nil,
        unversionedMaxTTL: Int? = nil, maxObjectBytes: Int = 10_485_760, maxPixels: Int = 50_000_000,
        contentTypes: [String] = Tier.imageContentTypes, downstreamCacheControl: String? = nil,
        originTimeout: Double = 15, memoryBytes: Int = 67_108_864, diskBytes: Int = 1_073_741_824,
        serveStaleOnError: Int = 0, variants: Variants? = nil, metadata: MetadataPolicy = .keep,
        targetedCacheControl: [String]? = nil, setCookie: SetCookiePolicy = .refuse,
        signedURLs: SignedURLPolicy? = nil, cors: CORSPolicy? = nil, forwardInterim: Bool = false,
        forwardRequestHeaders: [String] = []
    ) {
        self.forwardInterim = forwardInterim
        self.forwardRequestHeaders = forwardRequestHeaders
        self.signedURLs = signedURLs
        self.cors = cors
        self.name = name
        self.storage = storage
        self.cache = cache
        self.credentials = credentials
        self.partition = partition
        self.maxTTL = maxTTL
        self.versionParameter = versionParameter
        self.unversionedMaxTTL = unversionedMaxTTL
        self.maxObjectBytes = maxObjectBytes
        self.maxPixels = maxPixels
        self.contentTypes = contentTypes
        self.downstreamCacheControl = downstreamCacheControl
        self.originTimeout = originTimeout
        self.memoryBytes = memoryBytes
        self.diskBytes = diskBytes
        self.serveStaleOnError = serveStaleOnError
        self.variants = variants
        self.metadata = metadata
        self.targetedCacheControl = targetedCacheControl
        self.setCookie = setCookie
    }

    /// Whether responses must be sniffed as one of ``contentTypes`` (`false` for `["*/*"]`).
    public var validatesImages: Bool { contentTypes != ["*/*"] }

    /// Whether `mediaType` (a sniffed type such as `image/png`) is accepted by ``contentTypes``.
    public func accepts(mediaType: String) -> Bool {
        !validatesImages || contentTypes.contains(mediaType.lowercased())
    }
}
