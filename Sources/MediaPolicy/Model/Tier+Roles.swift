extension Tier {
    /// The RFC 9111 cache role the tier plays (policy key `cache`).
    public enum CacheRole: String, Sendable, Hashable, CaseIterable {
        /// A shared cache (RFC 9111 §1): honours `s-maxage` and `private`, §3.5 for `Authorization`.
        case shared = "shared"
        /// A private cache, one per user: requires `partition: credential`.
        case `private` = "private"
    }

    /// What happens to request credentials (`Authorization`, `Cookie`) (policy key `credentials`).
    public enum CredentialPolicy: String, Sendable, Hashable, CaseIterable {
        /// Removed before the origin sees them.
        case strip = "strip"
        /// A request carrying credentials is answered `400`.
        case refuse = "refuse"
        /// `401` with `WWW-Authenticate: Bearer` without `Authorization: Bearer …`; forwarded to the origin.
        case bearerRequired = "bearer-required"
        /// Passed to the origin; RFC 9111 §3.5 decides storability.
        case forward = "forward"

        /// Whether the origin sees the client's credentials.
        public var forwardsCredentials: Bool { self == .bearerRequired || self == .forward }
    }

    /// How the tier's cache is partitioned (policy key `partition`).
    public enum Partition: String, Sendable, Hashable, CaseIterable {
        /// One cache for every client.
        case none = "none"
        /// One partition per credential (a keyed digest of it); no credential, no partition.
        case credential = "credential"
    }
}
