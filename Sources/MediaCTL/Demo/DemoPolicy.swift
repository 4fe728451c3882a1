import MediaPolicy

/// The policy `mediactl demo` runs with: the same tiers and routes as `Policies/default.json`,
/// compiled in so the demo works from any directory. The demo points every route's origin at its
/// embedded ``DemoOrigin`` (`--origin`-style overrides).
public enum DemoPolicy {
    /// The name the built-in file has in messages: `built-in demo policy (Policies/default.json)`.
    public static let sourceName = "built-in demo policy (Policies/default.json)"

    /// The route names, which are also the sample folders: `catalog`, `large`, `avatars`, `uploads`, `receipts`,
    /// `one-time`.
    public static let routes = ["catalog", "large", "avatars", "uploads", "receipts", "one-time"]

    /// The policy file, as in `Policies/default.json`.
    public static let text = """
        { "tiers": {
            "public":  { "storage": "disk", "cache": "shared", "credentials": "strip",
                         "maxTTL": 31536000, "maxObjectBytes": 10485760, "maxPixels": 50000000,
                         "contentTypes": ["image/jpeg", "image/png", "image/gif", "image/webp", "image/avif"],
                         "downstreamCacheControl": "public, max-age=31536000, immutable",
                         "ignoredQueryParameters": ["utm_*", "fbclid", "gclid"], "passQueryParameters": ["v"],
                         "errorTTL": { "404": 60, "410": 600, "refused": 60 }, "tagHeader": "Surrogate-Key",
                         "variants": { "widths": [72, 144, 288, 576, 1152], "formats": ["jpeg", "webp", "avif", "png"],
                                       "maxDpr": 3, "quality": { "jpeg": 80, "webp": 85, "avif": 70, "jxl": 80 } } },
            "avatar":  { "storage": "disk", "cache": "shared", "credentials": "strip",
                         "versionParameter": "v", "unversionedMaxTTL": 300, "maxTTL": 31536000,
                         "ignoredQueryParameters": ["utm_*", "fbclid", "gclid"], "errorTTL": { "404": 30 },
                         "variants": { "widths": [72, 144, 288, 576, 1152], "formats": ["jpeg", "webp", "avif", "png"],
                                       "maxDpr": 3, "quality": { "jpeg": 80, "webp": 85, "avif": 70, "jxl": 80 } },
                         "metadata": "strip" },
            "private": { "storage": "encrypted-disk", "cache": "private", "credentials": "bearer-required",
                         "partition": "credential", "maxTTL": 600, "downstreamCacheControl": "private, no-store",
                         "variants": { "widths": [72, 144, 288, 576, 1152], "formats": ["jpeg", "webp", "avif", "png"],
                                       "maxDpr": 3, "quality": { "jpeg": 80, "webp": 85, "avif": 70, "jxl": 80 } },
                         "metadata": "strip" },
            "no-store":{ "storage": "none" } },
          "routes": [
            { "name": "catalog",  "mount": "/catalog/",  "origin": "http://127.0.0.1:8081/catalog/",  "tier": "public" },
            { "name": "large",    "mount": "/large/",    "origin": "http://127.0.0.1:8081/large/",    "tier": "public" },
            { "name": "avatars",  "mount": "/avatars/",  "origin": "http://127.0.0.1:8081/avatars/",  "tier": "avatar" },
            { "name": "uploads",  "mount": "/uploads/",  "origin": "http://127.0.0.1:8081/uploads/",  "tier": "avatar" },
            { "name": "receipts", "mount": "/receipts/", "origin": "http://127.0.0.1:8081/receipts/", "tier": "private" },
            { "name": "one-time", "mount": "/one-time/", "origin": "http://127.0.0.1:8081/one-time/", "tier": "no-store" } ] }
        """

    /// The policy with every route's origin at `originBase` (such as `http://127.0.0.1:40123`)
    /// plus `/<route>/`.
    /// - Throws: ``CommandError`` `invalid-policy` (exit 2), which would be a build defect.
    public static func policies(originBase: String) throws(CommandError) -> PolicySet {
        try ServiceSetup.loadPolicies(
            [PolicyLoader.Source(name: sourceName, text: text)],
            overrides: routes.map { OriginOverride(route: $0, url: "\(originBase)/\($0)/") })
    }

    /// ``policies(originBase:)`` plus the signed route `web-receipts` of `signing` (``DemoSigning``), its origin at
    /// `originBase/web-receipts/`. Its keys file lives in the demo's state directory, so it is not in `Policies/`:
    /// a checked-out keys file could never be mode 0600.
    static func policies(originBase: String, signing: DemoSigning) throws(CommandError) -> PolicySet {
        try ServiceSetup.loadPolicies(
            [PolicyLoader.Source(name: sourceName, text: text),
             PolicyLoader.Source(name: DemoSigning.sourceName, text: signing.policyText)],
            overrides: (routes + ["web-receipts"]).map { OriginOverride(route: $0, url: "\(originBase)/\($0)/") })
    }
}
