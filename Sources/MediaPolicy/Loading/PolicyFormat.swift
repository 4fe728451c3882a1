/// The policy file format's vocabulary and limits (docs/policy-format.md, docs/policy.schema.json).
public enum PolicyFormat {
    /// Keys of a policy file's top-level object, sorted.
    public static let topLevelKeys = ["$schema", "routes", "tiers"]
    /// Keys of a tier object, sorted.
    public static let tierKeys = [
        "animation", "cache", "contentTypes", "cors", "credentials", "defaultTTL", "diskBytes", "downstreamCacheControl", "errorTTL",
        "forwardInterim", "forwardRequestHeaders", "heuristic", "ignoredQueryParameters", "keyLifetime", "maxObjectBytes", "maxPixels",
        "maxTTL", "memoryBytes",
        "metadata", "originTimeout", "partition", "passQueryParameters", "serveStaleOnError", "setCookie",
        "signedURLs", "storage", "tagHeader", "targetedCacheControl", "unversionedMaxTTL", "variants", "versionParameter",
    ]
    /// Most entries of `ignoredQueryParameters` or `passQueryParameters`: 32.
    public static let maximumQueryParameters = 32
    /// Keys of a tier's `variants` object, sorted.
    public static let variantKeys = ["avifEffort", "clientHints", "clientProfiles", "formats", "heights", "maxAVIFWidth", "maxDpr", "maxOutputPixels", "quality",
                                     "widths"]
    /// Keys of a tier's `animation` object.
    public static let animationKeys = ["maxFrames", "maxPixels"]
    /// Keys a `variants` object must have.
    public static let requiredVariantKeys = ["formats", "widths"]
    /// Largest `variants.maxDpr`: 4.
    public static let maximumDpr = 4
    /// Most entries of `variants.widths` or `variants.heights`: 16.
    public static let maximumVariantSizes = 16
    /// Keys of a route object, sorted.
    public static let routeKeys = [
        "cors", "methods", "mount", "name", "origin", "originAuthorization", "subjectHeader", "targetedCacheControl", "tier",
    ]
    /// Keys of a tier's `signedURLs` object, sorted.
    public static let signedURLKeys = ["keys", "maxLifetime", "required"]
    /// Keys of a `cors` object, sorted.
    public static let corsKeys = ["allowAuthorization", "allowOrigins", "maxAge"]
    /// Keys of a route's `originAuthorization` object.
    public static let originAuthorizationKeys = ["bearerFile"]
    /// Most entries of `cors.allowOrigins`: 64.
    public static let maximumAllowedOrigins = 64
    /// Most entries of `targetedCacheControl`: 8.
    public static let maximumTargetedFields = 8
    /// Most entries of a tier's `forwardRequestHeaders`: 16.
    public static let maximumForwardedFields = 16
    /// Keys a tier must have.
    public static let requiredTierKeys = ["storage"]
    /// Keys a route must have.
    public static let requiredRouteKeys = ["mount", "name", "origin", "tier"]

    /// Largest time in seconds (`maxTTL`, `unversionedMaxTTL`, `serveStaleOnError`): 2,147,483,648,
    /// the RFC 9111 §1.2.2 delta-seconds cap.
    public static let maximumSeconds = 2_147_483_648
    /// Largest `maxObjectBytes` and `memoryBytes`: 1 TiB (1,099,511,627,776 bytes).
    public static let maximumMemoryBytes = 1 << 40
    /// Largest `diskBytes`: 1 PiB (1,125,899,906,842,624 bytes).
    public static let maximumDiskBytes = 1 << 50
    /// Largest `maxPixels`: 2^32 (4,294,967,296).
    public static let maximumPixels = 1 << 32
    /// Largest `originTimeout`, seconds: 3600.
    public static let maximumOriginTimeout = 3600.0
    /// Longest name (tier, route) and `versionParameter`: 64 characters.
    public static let maximumNameLength = 64
    /// Longest mount, origin and `downstreamCacheControl`: 1024 characters.
    public static let maximumTextLength = 1024
    /// Mount prefix reserved for mediactl's own endpoints (`/_mediactl/health`, `/_mediactl/metrics`).
    public static let reservedMount = "/_mediactl/"
}
