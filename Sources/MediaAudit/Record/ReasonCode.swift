/// A stable machine-readable reason in an audit record: `[a-z0-9:-]{1,64}`.
///
/// An open set (static members for the codes the service uses); any other code matching the pattern is
/// accepted, so a hook may add `hook-narrowed:memory` style codes. Free text is refused so that no value
/// from a request (a header, a token, a path) can end up in the log as a reason.
public struct ReasonCode: AuditWord {
    /// The code, for example `tier-storage`.
    public let rawValue: String

    /// `[a-z0-9:-]{1,64}`, else ``AuditError/Code/invalidReason``.
    public static let syntax = AuditWordSyntax(
        lengths: 1...64, bytes: [0x61...0x7a, 0x30...0x39, 0x3a...0x3a, 0x2d...0x2d],
        code: .invalidReason, expected: "expected [a-z0-9:-]{1,64}")

    public init(_ rawValue: String) throws { self.rawValue = try Self.syntax.check(rawValue) }

    init(unchecked rawValue: String) { self.rawValue = rawValue }

    /// Stored as the tier's storage class allows.
    public static let tierStorage = ReasonCode(unchecked: "tier-storage")
    /// The response carried `Cache-Control: no-store` (RFC 9111 §3).
    public static let responseNoStore = ReasonCode(unchecked: "response-no-store")
    /// `Cache-Control: private` in a shared cache (RFC 9111 §3).
    public static let privateInSharedCache = ReasonCode(unchecked: "private-in-shared-cache")
    /// A request with `Authorization` in a shared cache without explicit permission (RFC 9111 §3.5).
    public static let authorizationInSharedCache = ReasonCode(unchecked: "authorization-in-shared-cache")
    /// `Vary: *` (RFC 9111 §4.1).
    public static let varyStar = ReasonCode(unchecked: "vary-star")
    /// Over the tier's `maxObjectBytes`.
    public static let overSizeLimit = ReasonCode(unchecked: "over-size-limit")
    /// Over the tier's `maxPixels`.
    public static let overPixelLimit = ReasonCode(unchecked: "over-pixel-limit")
    /// The body is not an allowed image.
    public static let notAnImage = ReasonCode(unchecked: "not-an-image")
    /// The status code is not storable (RFC 9111 §3).
    public static let statusNotStorable = ReasonCode(unchecked: "status-not-storable")
    /// The tier's storage is `none`.
    public static let tierNoStore = ReasonCode(unchecked: "tier-no-store")
    /// On `start`: the writer truncated a torn last line (see ``AuditLog/OpenReport/tornTailBytes``).
    public static let repairedTornTail = ReasonCode(unchecked: "repaired-torn-tail")
    /// On `purge`: removed by `mediactl purge --route`.
    public static let purgeRoute = ReasonCode(unchecked: "purge-route")
    /// On `purge`: removed by `mediactl purge --credential-file` (logout).
    public static let purgeCredential = ReasonCode(unchecked: "purge-credential")
    /// On `purge`: removed by `mediactl purge --subject` (a signed-URL subject's logout or erasure).
    public static let purgeSubject = ReasonCode(unchecked: "purge-subject")
    /// On `purge`: removed by `mediactl purge --url` (one URL in every partition, with its derived images).
    public static let purgeURL = ReasonCode(unchecked: "purge-url")
    /// On `purge`: removed by `mediactl purge --tag` (the summary names the tag's digest).
    public static let purgeTag = ReasonCode(unchecked: "purge-tag")
    /// On a soft purge's summary `purge` record: `mediactl purge --tag --soft` marked the objects stale (each one's
    /// `update` has reason ``softPurge``).
    public static let purgeTagSoft = ReasonCode(unchecked: "purge-tag-soft")
    /// On `update`: a soft purge marked the stored response stale (`ttl` 0); it stays stored and is revalidated.
    public static let softPurge = ReasonCode(unchecked: "soft-purge")
    /// On `purge`: removed by `mediactl purge --all`.
    public static let purgeAll = ReasonCode(unchecked: "purge-all")
    /// On `shred`: an encrypted-disk object whose key died with the previous process.
    public static let unreadableAfterRestart = ReasonCode(unchecked: "unreadable-after-restart")
    /// `shred`: a partition's encrypted-disk data key was destroyed before its files were removed (crypto-shredding;
    /// the record names the key in `keyId`).
    public static let partitionKeyDestroyed = ReasonCode(unchecked: "partition-key-destroyed")
    /// On `gap` (docs/audit-format.md, "Gaps"): the log could not be written, for a reason without an `errno`;
    /// `audit-unavailable:<errno name>` (`audit-unavailable:eperm`) when a system call failed. On `skip`: the
    /// service refused to store because the log could not be written (the record itself is then refused).
    public static let auditUnavailable = ReasonCode(unchecked: "audit-unavailable")
    /// A hook narrowed the decision to `storage`, e.g. `hook-narrowed:memory`.
    public static func hookNarrowed(to storage: AuditStorage) -> ReasonCode {
        ReasonCode(unchecked: "hook-narrowed:\(storage.rawValue)")
    }
}
