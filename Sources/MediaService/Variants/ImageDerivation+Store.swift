import HTTPCaching
import MediaCore
import MediaCrypto
import MediaPolicy
import MediaStorage
import MediaTransform

extension ImageDerivation {
    /// Steps 6–8 for a derived image: it inherits its source's tier, partition, freshness and storage class.
    ///
    /// - The stored response is the source's (same `Date`, `Age`, `Cache-Control`, request and response
    ///   times), so the variant is never fresher than its source, with the variant's own `Content-Type`,
    ///   `Content-Length` and a strong `ETag` of its bytes.
    /// - The hook chain decides as for any response; the result is then narrowed to the class the source is
    ///   stored in (reason `source-storage:<class>`): a source that was not stored gives a variant that is not
    ///   stored, a memory source a memory variant at most. A source whose response varies (`Vary`, other than on
    ///   `Accept-Encoding`, or `Authorization` on a partitioned tier) keeps its variants out of storage
    ///   (`source-varies`): the variant key has no secondary key.
    /// - The entry expires with the source's (``MediaStorage/EntryMetadata/expiresAt``); its `store` record
    ///   names the source (`derivedFrom`) and the normalised parameters (`transform`).
    /// - Parameters:
    ///   - sourceDigest: hex SHA-256 of the source body (``StoredHead/sourceDigest``).
    ///   - derived: `false` when `image` is a stored variant of the same source bytes stored again (nothing was
    ///     transformed: not counted in `variants_derived_total`).
    ///   - sourceGeneration: the source group's change counter read when the source was served.
    ///   - staleSource: the source's `Cache-Status` when it was served stale: the variant's says so too
    ///     (``inheritingStaleness(_:from:)``).
    func store(_ image: DerivedBody, of captured: Representation, sourceDigest: String,
                      sourceGeneration: Int, source: RequestContext, stored: RequestContext, selection: VariantSelection,
                      reason: CacheStatus.Forward?, staleSource: CacheStatus? = nil, derived: Bool) -> Derivation {
        let tier = stored.tier
        let time = clock()
        let transform = image.transform
        var fields = captured.response.fields
        for name in ["content-encoding", "content-range", "content-md5", "digest", "repr-digest", "content-digest"] {
            fields.remove(HTTPFieldName(name))
        }
        fields.set(.contentType, image.mediaType)
        fields.set(.contentLength, String(image.bytes.count))
        fields.set(.eTag, "\"v-" + String(SHA256.hash(image.bytes).hex.prefix(32)) + "\"")
        // The variant key has no secondary key: a source that varies on anything but what every variant request
        // shares (the identity coding the cache always asks for; the credential on a partitioned tier, already in
        // the key) keeps its variants out of storage.
        let varies = Self.variesBeyondVariantKey(captured.response, tier: tier)
        if !varies { fields.remove(.vary) }
        let response = StoredResponse(status: 200, fields: fields, requestTime: captured.response.requestTime,
                                      responseTime: captured.response.responseTime, targets: captured.response.targets)
        let lifetime = min(captured.response.freshnessLifetime(role: stored.role, configuration: tier.freshness),
                           captured.head.policyTTL)
        let ttl = max(0, lifetime - captured.response.currentAge(now: Int64(time)))
        // RFC 9111 §3 on the variant's own fields (the source's, as a 304 may have updated them: a source that
        // became `private` or `no-store` gives a variant a shared cache does not store).
        let verdict = Storability.evaluate(method: "GET", requestFields: stored.originFields, status: 200,
                                           responseFields: fields, role: stored.role, targets: captured.response.targets)
        let storability: StorageProposal.Storability
        if let why = verdict.reason {
            storability = .notStorable(StorageReason(why.code))
        } else if varies {
            storability = .notStorable(StorageReason("source-varies"))
        } else {
            storability = .storable(ttl: Int(min(ttl, Int64(Int32.max))))
        }
        let proposal = StorageProposal(
            tier: tier, route: stored.route,
            request: .init(hasCredential: stored.hasCredential, hasVersionParameter: stored.isVersioned,
                           purgedDuringExchange: commit.wasPurgedDuringExchange(stored)),
            response: .init(status: 200, fields: fields),
            body: .init(byteCount: image.bytes.count, format: image.mediaType, pixelWidth: image.width,
                        pixelHeight: image.height),
            storability: storability, sourceStorage: captured.storage)
        let decision = commit.chain.decide(proposal)
        let sourceKey = captured.storeKey ?? CacheKey.store(group: source.groupKey, secondary: .empty)
        let derivation = ServiceAuditor.Derivation(source: CacheKey.digest(sourceKey), transform: transform)
        // Never fresher than the source, nor than its own decision (a hook may shorten a variant's ttl).
        let age = response.currentAge(now: Int64(time))
        let policyTTL = min(captured.head.policyTTL, Int64(decision.ttl) + age)
        var head = StoredHead(response, contentType: image.mediaType, width: image.width, height: image.height,
                              storage: decision.storage.rawValue, policyTTL: policyTTL)
        head.derivedFrom = derivation.source
        head.transform = transform
        head.sourceDigest = sourceDigest
        if image.sourceFrames > 1 { head.sourceFrames = image.sourceFrames }
        let storeKey = CacheKey.store(group: stored.groupKey, secondary: .empty)
        if derived { stored.runtime.counters.bump(.variantsDerived) }
        let ownExpiry = StoreCommit.expiresAt(responseTime: time, ttl: Int64(decision.ttl), tier: tier)
        let entry = StoredEntry(
            metadata: EntryMetadata(key: storeKey, tier: tier.name, route: stored.route.name, partition: stored.partition,
                                    head: head.encoded(), requestTime: Double(captured.response.requestTime),
                                    responseTime: Double(captured.response.responseTime),
                                    expiresAt: min(captured.expiresAt ?? ownExpiry, ownExpiry), lifetime: Double(policyTTL),
                                    tags: captured.tags),
            body: image.bytes)
        var content = commit.storeDecided(entry, response: response, head: head, decision: decision,
                              subject: subject(stored, storeKey: storeKey, source: source), context: stored,
                              status: CacheStatus(forward: reason), derivation: derivation,
                              source: (group: source.groupKey, generation: sourceGeneration))
        if let staleSource { content.cacheStatus = Self.inheritingStaleness(content.cacheStatus, from: staleSource) }
        return Derivation(result: .content(content), shareable: content.storeKey != nil)
    }

    /// A variant's `Cache-Status` made from a source served stale (RFC 9211): the source's `fwd` and `fwd-status`
    /// (why and how the source's origin was asked), a `ttl` no larger than the source's (never fresher), the source's
    /// `detail` (`stale-if-error`, `stale-while-revalidate`, `max-stale`), and whether the variant was `stored`.
    static func inheritingStaleness(_ status: CacheStatus, from source: CacheStatus) -> CacheStatus {
        var inherited = status
        inherited.forward = source.forward
        inherited.forwardStatus = source.forwardStatus
        inherited.ttl = min(status.ttl ?? source.ttl ?? 0, source.ttl ?? 0)
        inherited.detail = source.detail
        return inherited
    }

    /// Whether `source` varies (`Vary`) on a field that a variant's key does not cover: anything but
    /// `Accept-Encoding` (the cache always asks for the identity coding) and, on a partitioned tier,
    /// `Authorization` (the partition is in the key); `Vary: *` always. Such a source's variants are not stored.
    static func variesBeyondVariantKey(_ source: StoredResponse, tier: Tier) -> Bool {
        (source.parsed.varyFieldNames ?? ["*"]).contains { name in
            let name = name.lowercased()
            return name != "accept-encoding" && !(tier.partition == .credential && name == "authorization")
        }
    }
}
