import MediaCore

/// What a purge removes (docs/cli.md, `mediactl purge`).
public enum PurgeScope: Sendable, Hashable {
    /// Every stored response of a route.
    case route(String)
    /// Every stored response of one credential's partition (logout).
    case credential(BearerToken)
    /// Every stored response of one signed-URL subject's partition (docs/signed-urls.md): 1–128 of `[A-Za-z0-9._-]`.
    case subject(String)
    /// Every stored response of one URL, given as a client requests it (`/catalog/a.jpg`, a query the tier keys on
    /// included): in every partition, with every derived image of it and its negative entry. A variant's parameters
    /// name the source, so `/catalog/a.jpg?w=144` purges the source and all its variants too.
    case url(String)
    /// Every stored response carrying the cache tag (docs/policy-format.md, "Cache tags"), matched exactly: removed, or
    /// with `soft` marked stale (revalidated on the next request; `stale-while-revalidate` and `stale-if-error` apply).
    case tag(String, soft: Bool)
    /// Everything.
    case all
}
