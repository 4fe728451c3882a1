/// Why a response may not be stored: a stable code (an open set of static members), used in audit
/// records and `Cache-Status` details.
public struct StorabilityReason: Sendable, Hashable, CustomStringConvertible {
    /// The stable code, e.g. `response-no-store`.
    public var code: String

    public init(code: String) { self.code = code }

    public var description: String { code }

    /// The request method is neither GET (nor a method this cache understands), §3.
    public static let methodNotCacheable = StorabilityReason(code: "method-not-cacheable")
    /// 1xx, 206 (no range support), 304, or a code outside 200…599, §3.
    public static let statusNotStorable = StorabilityReason(code: "status-not-storable")
    /// `no-store` in the request, §5.2.1.5.
    public static let requestNoStore = StorabilityReason(code: "request-no-store")
    /// `no-store` in the response, §5.2.2.5.
    public static let responseNoStore = StorabilityReason(code: "response-no-store")
    /// `must-understand` with a status this cache does not understand, §5.2.2.3.
    public static let mustUnderstandUnknownStatus = StorabilityReason(code: "must-understand-unknown-status")
    /// Unqualified `private` in a shared cache, §5.2.2.7.
    public static let privateInSharedCache = StorabilityReason(code: "private-in-shared-cache")
    /// `Authorization` in the request to a shared cache without `public`, `s-maxage` or `must-revalidate`, §3.5.
    public static let authorizationInSharedCache = StorabilityReason(code: "authorization-in-shared-cache")
    /// `Vary` contains `*`, §4.1.
    public static let varyStar = StorabilityReason(code: "vary-star")
    /// No explicit freshness, no `public`/`private` (private cache) and no heuristically cacheable status, §3.
    public static let noFreshnessInformation = StorabilityReason(code: "no-freshness-information")
    /// A 5xx or unregistered status that is not heuristically cacheable, without `max-age`, `s-maxage`
    /// (shared cache) or `Expires`: `public` alone does not make an error storable (§3, §4.2.2; RFC 9110 §15.1).
    public static let errorWithoutExplicitFreshness = StorabilityReason(code: "error-without-explicit-freshness")
}

/// The answer of ``Storability/evaluate(method:requestFields:status:responseFields:role:)``.
public struct StorabilityVerdict: Sendable, Hashable {
    /// `nil` when the response may be stored; otherwise the first rule that forbids it.
    public var reason: StorabilityReason?

    public init(reason: StorabilityReason?) { self.reason = reason }

    /// Whether the response may be stored.
    public var isStorable: Bool { reason == nil }

    /// May be stored.
    public static let storable = StorabilityVerdict(reason: nil)
}
