/// The cache role of RFC 9111 §1: a shared cache (used by many users) or a private cache
/// (one user; here: one credential partition).
public enum CacheRole: String, Sendable, Hashable {
    /// A shared cache: honours `s-maxage`, `proxy-revalidate`, refuses `private` and `Authorization` (§3.5).
    case shared
    /// A private cache.
    case `private`
}
