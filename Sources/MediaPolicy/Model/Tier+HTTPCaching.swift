extension Tier {
    /// What a shared tier does with an origin answer that sets a cookie (policy key `setCookie`).
    public enum SetCookiePolicy: String, Sendable, Hashable, CaseIterable {
        /// A shared tier never stores an answer with `Set-Cookie` (audit `skip`, reason
        /// `set-cookie-in-shared-cache`), never hands it to coalesced requests, and never merges a 304's
        /// `Set-Cookie` into a stored response: one client's cookie is never replayed to another (as
        /// nginx's `proxy_cache`). The default. Image tiers drop the origin's `Set-Cookie` anyway.
        case refuse = "refuse"
        /// The stored response keeps `Set-Cookie` as RFC 9111 §3.1 allows, and hits replay it; origins
        /// keep a cookie out of storage with `private`, `no-cache="Set-Cookie"` or `private="Set-Cookie"`.
        /// Only on generic tiers (`contentTypes: ["*/*"]`, conformance mode).
        case store = "store"
    }

    /// The targeted cache-control fields the tier honours, in order (RFC 9213): ``targetedCacheControl``
    /// when set, else `["CDN-Cache-Control"]` for a shared tier and none for a private one.
    public var targetedFields: [String] {
        targetedCacheControl ?? (cache == .shared ? ["CDN-Cache-Control"] : [])
    }
}
