import HTTPCaching
import MediaCore
import MediaPolicy
import MediaSigning

/// Everything the pipeline knows about an admitted request.
struct RequestContext: Sendable {
    /// Request fields a cache answers itself instead of forwarding.
    static let clientConditionals: [HTTPFieldName] = [.ifNoneMatch, .ifModifiedSince, .ifMatch, .ifUnmodifiedSince, .ifRange, .range]

    /// `GET`, `HEAD`, or another method on a pass-through route.
    var method: HTTPMethod
    var route: MediaPolicy.Route
    var runtime: TierRuntime
    var tier: Tier { runtime.tier }
    /// The origin URL: the route's origin base + the normalised path remainder + query.
    var upstreamURL: String { didSet { groupKey = Self.groupKey(runtime, upstreamURL, partition) } }
    /// Whether the query carries the tier's version parameter.
    var isVersioned: Bool
    /// The client's request fields, as received (for conditionals and `Cache-Control`).
    var clientFields: HTTPFields
    /// The fields sent to the origin (hygiene applied, credentials per tier).
    var originFields: HTTPFields
    /// Whether a credential reaches the origin.
    var hasCredential: Bool
    /// Hex keyed digest of the credential on partitioned tiers, else `nil`.
    var partition: String? { didSet { groupKey = Self.groupKey(runtime, upstreamURL, partition) } }
    var cachePolicy: RequestCachePolicy
    /// ``MediaService/purgeEpoch`` when the request was admitted.
    var purgeEpoch: Int
    /// The derived image the request selects (a tier with `variants` and a query with `w`), or `nil`: the
    /// representation at ``upstreamURL`` itself. ``upstreamURL`` is then the source's URL.
    var variant: VariantSelection? = nil
    /// Where this request's own origin exchange forwards interim responses (``Admission/interimForwarder(for:tier:)``), or `nil`.
    var interim: OriginInterimResponse.Handler? = nil
    /// The verified signature of a signed request (docs/signed-urls.md), or `nil`: its subject gave ``partition``.
    var signature: VerifiedSignature? = nil
    /// The CORS the route answers (its `cors`, else its tier's), or `nil`: the origin's CORS fields are dropped then.
    var cors: CORSPolicy? = nil
    /// The request's id (``RequestID``), sent to the origin as `X-Request-Id`, or `nil`.
    var requestID: String? = nil

    init(method: HTTPMethod, route: MediaPolicy.Route, runtime: TierRuntime, upstreamURL: String, isVersioned: Bool,
         clientFields: HTTPFields, originFields: HTTPFields, hasCredential: Bool, partition: String?,
         cachePolicy: RequestCachePolicy, purgeEpoch: Int) {
        self.method = method
        self.route = route
        self.runtime = runtime
        self.upstreamURL = upstreamURL
        self.isVersioned = isVersioned
        self.clientFields = clientFields
        self.originFields = originFields
        self.hasCredential = hasCredential
        self.partition = partition
        self.cachePolicy = cachePolicy
        self.purgeEpoch = purgeEpoch
        groupKey = Self.groupKey(runtime, upstreamURL, partition)
    }

    /// The group key of `url` on `runtime`'s tier in `partition` (tier-scoped primary key, ``CacheKey/primary(tier:url:)``).
    static func groupKey(_ runtime: TierRuntime, _ url: String, _ partition: String?) -> String {
        CacheKey.group(primary: runtime.primaryKey(url: url), partition: partition)
    }

    /// Conformance mode (a generic tier, `contentTypes: ["*/*"]`): request fields pass through unchanged
    /// except hop-by-hop ones, client conditionals reach the origin when nothing is stored, nothing is retried.
    var isGeneric: Bool { !tier.validatesImages }

    /// The targeted cache-control fields honoured for this request (RFC 9213): the route's list, else the tier's.
    var targets: [String] { route.targetedCacheControl ?? tier.targetedFields }

    /// Whether the request may join another's origin exchange: never when a credential reaches the
    /// origin without forming a partition, nor (conformance mode) when the client sent conditionals.
    var coalesces: Bool {
        if hasCredential && partition == nil { return false }
        if isGeneric && Self.clientConditionals.contains(where: { clientFields.contains($0) }) { return false }
        return true
    }

    /// The RFC 9111 group key (primary key + partition): ``groupKey(_:_:_:)``, built once (kept current when either changes):
    /// the miss path reads it for the flight key, the candidates, the store key and the audit subject.
    private(set) var groupKey: String

    /// The URL recorded in audit records (query dropped by the record type): only for the tiers whose URLs
    /// name shared objects, those with `cache` `shared`, `partition` `none` and a storage class other than
    /// `none`. Never for a partitioned or private-cache tier, nor for a `no-store` tier, whose URLs may name
    /// one person's one-time content.
    var auditURL: String? {
        partition == nil && tier.partition == .none && tier.cache == .shared && tier.storage != .none ? upstreamURL : nil
    }

    /// The request as the RFC 9111 decision sees it: origin-bound fields (so `Vary` on
    /// `Authorization` sees the forwarded credential) with the cache policy's directives added.
    var cacheRequest: CacheRequest {
        var fields = originFields
        if let added = cachePolicy.addedCacheControl { fields.append(.cacheControl, added) }
        return CacheRequest(method: "GET", fields: fields)
    }

    func subject(storeKey: String) -> ServiceAuditor.Subject {
        ServiceAuditor.Subject(tier: tier.name, route: route.name, storeKey: storeKey, partition: partition, url: auditURL)
    }

    var outcome: ServiceOutcome { ServiceOutcome(route: route.name, tier: tier.name, partition: partition) }
}

extension RequestContext {
    /// The RFC 9111 cache role of the tier.
    var role: HTTPCaching.CacheRole { tier.cache == .private ? .private : .shared }
}
