import MediaCore

/// A stable reason code for a storage decision, as written to the audit log's `reason` field
/// (docs/audit-format.md). An open set: callers may create their own with ``init(_:)``.
public struct StorageReason: RawRepresentable, Hashable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// The code as written to the audit log, e.g. `tier-storage`.
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { self.rawValue = value }

    public var description: String { rawValue }

    // MARK: RFC 9111 storability (computed by the caller, HTTPCaching)

    /// RFC 9111 §3 allows storing the response.
    public static let rfc9111Storable = StorageReason("rfc9111-storable")
    /// `no-store` in the response (RFC 9111 §5.2.2.5).
    public static let responseNoStore = StorageReason("response-no-store")
    /// `no-store` in the request (RFC 9111 §5.2.1.5).
    public static let requestNoStore = StorageReason("request-no-store")
    /// `private` response in a shared cache (RFC 9111 §5.2.2.7).
    public static let privateInSharedCache = StorageReason("private-in-shared-cache")
    /// Request with `Authorization` in a shared cache without `public`, `s-maxage` or `must-revalidate` (RFC 9111 §3.5).
    public static let authorizationInSharedCache = StorageReason("authorization-in-shared-cache")
    /// `Vary: *` (RFC 9111 §4.1).
    public static let varyStar = StorageReason("vary-star")
    /// An origin `Set-Cookie` on a shared generic tier: one client's cookie is never replayed to
    /// another (image tiers drop `Set-Cookie` instead).
    public static let setCookieInSharedCache = StorageReason("set-cookie-in-shared-cache")
    /// An answer to a request for a range that is not the whole representation (a `206`, a `416`, any status
    /// chosen for that range): not what a plain `GET` of the URL gets.
    public static let answerToRangeRequest = StorageReason("answer-to-range-request")
    /// A status code that is neither final nor understood, or not cacheable here (RFC 9111 §3).
    public static let statusNotStorable = StorageReason("status-not-storable")

    // MARK: Tier policy

    /// The tier's `storage` decided the class.
    public static let tierStorage = StorageReason("tier-storage")
    /// A `partition: credential` tier got a request without a credential: there is no partition to
    /// store into, and a per-user tier has no shared slot.
    public static let noPartition = StorageReason("no-partition")
    /// The time to live was capped at the tier's `maxTTL`.
    public static let tierMaxTTL = StorageReason("tier-max-ttl")
    /// The time to live was capped at the tier's `unversionedMaxTTL` (no version parameter).
    public static let unversionedMaxTTL = StorageReason("unversioned-max-ttl")
    /// A negative entry (an origin error's problem), kept for at most the tier's `errorTTL` for its status.
    public static let errorTTL = StorageReason("error-ttl")
    /// The response's current age (its `Age`, or its apparent age from `Date`) already reaches the tier's TTL cap.
    public static let ageOverMaxTTL = StorageReason("age-over-max-ttl")

    // MARK: Limits

    /// The body is larger than the tier's `maxObjectBytes`.
    public static let overSizeLimit = StorageReason("over-size-limit")
    /// Width × height is larger than the tier's `maxPixels`.
    public static let overPixelLimit = StorageReason("over-pixel-limit")
    /// The sniffed format is not one of the tier's `contentTypes`.
    public static let notAnImage = StorageReason("not-an-image")

    // MARK: After the hooks

    /// A derived image narrowed to the class its source is stored in: `source-storage:memory`, `source-storage:none`, ….
    public static func sourceStorage(_ storage: StorageClass) -> StorageReason {
        StorageReason("source-storage:\(storage.rawValue)")
    }
    /// A purge began while the response was being fetched: it may belong to what the purge removed.
    public static let purgedDuringFetch = StorageReason("purged-during-fetch")

    // MARK: User hooks

    /// A hook answered a wider class or a longer time to live than it was offered; it was clamped.
    public static let hookWideningClamped = StorageReason("hook-widening-clamped")
    /// A hook shortened the time to live only.
    public static let hookTTLNarrowed = StorageReason("hook-ttl-narrowed")

    /// A hook narrowed the class to `storage`: `hook-narrowed:memory`, `hook-narrowed:none`, ….
    public static func hookNarrowed(_ storage: StorageClass) -> StorageReason {
        StorageReason("hook-narrowed:\(storage.rawValue)")
    }
}
