import MediaPolicy

/// The admission of a raw request target for a plain, credential-free `GET`/`HEAD`, computed once by
/// the full router (``Router/resolve(_:configuration:)``) and reused by memory hits. Immutable.
final class HitRoute: Sendable {
    let route: MediaPolicy.Route
    let runtime: TierRuntime
    /// The origin URL, as ``RequestContext/upstreamURL``.
    let upstreamURL: String
    /// Whether the query carries the tier's version parameter.
    let isVersioned: Bool
    /// The RFC 9111 group key without a partition (``CacheKey/group(primary:partition:)``).
    let groupKey: String
    /// The primary key's text, which a partition's group key extends (``CacheKey/group(primary:partition:)``).
    let primaryKey: String
    /// Route and tier names, as ``RequestContext/outcome`` gives them.
    let routeName: String
    let tierName: String
    /// What a prepared answer for this target depends on besides its entry.
    let preparedKey: PreparedHit.Key
    /// Whether the tier requires a bearer token (`credentials: bearer-required`): each request's token is parsed, and
    /// with `partition: credential` its partition computed, by the full path's own rules (``BearerToken``,
    /// ``RequestKeys``); what a hit learns is kept per partition in ``partitionSlots``, never in the target's own slot.
    let requiresBearer: Bool
    /// For a bearer tier's unsigned target: what its hits learned, per partition; `nil` otherwise.
    let partitionSlots: PartitionSlots?
    /// Whether the tier partitions per credential (`partition: credential`).
    let partitionsByCredential: Bool
    /// For a signed URL (its target verified once by the full path, ``Admission``): its verified signature and its
    /// subject's partition, which every request of this target is answered in while the signature has not expired.
    let signed: SignatureCache.Entry?
    /// ``signed``'s expiry (seconds since the epoch), read on every hit without copying the entry; `nil` when unsigned.
    let signedExpires: Int64?
    /// ``signed``'s subject partition, likewise.
    let signedPartition: String?

    init(route: MediaPolicy.Route, runtime: TierRuntime, upstreamURL: String, isVersioned: Bool,
         signed: SignatureCache.Entry? = nil) {
        self.route = route
        self.runtime = runtime
        self.upstreamURL = upstreamURL
        self.isVersioned = isVersioned
        // A signed URL's entries are its subject's partition's.
        primaryKey = runtime.primaryKey(url: upstreamURL)
        groupKey = CacheKey.group(primary: primaryKey, partition: signed?.partition)
        routeName = route.name
        tierName = runtime.tier.name
        preparedKey = PreparedHit.Key(tier: runtime.tier.name, isVersioned: isVersioned)
        requiresBearer = runtime.tier.credentials == .bearerRequired
        partitionsByCredential = runtime.tier.partition == .credential
        self.signed = signed
        partitionSlots = requiresBearer && signed == nil ? PartitionSlots() : nil
        signedExpires = signed?.signature.expires
        signedPartition = signed?.partition
    }

    /// The request context a plain `GET` to this target is admitted with (`admit` without credentials).
    /// The context of a plain request in `partition` (a bearer tier's request and a signed one carry a credential).
    func context(partition: String?) -> RequestContext {
        var context = RequestContext(
            method: "GET", route: route, runtime: runtime, upstreamURL: upstreamURL, isVersioned: isVersioned,
            clientFields: [:], originFields: [:], hasCredential: requiresBearer || signed != nil, partition: partition,
            cachePolicy: .useProtocolCachePolicy, purgeEpoch: 0)
        context.signature = signed?.signature
        return context
    }
}
